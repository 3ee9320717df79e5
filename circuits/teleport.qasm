// Teleportation as Qiskit's textbook writes it in OpenQASM 2: the two measured bits form one
// register c (c[0] the least significant), and each correction is a register comparison.
OPENQASM 2.0;
include "qelib1.inc";
qreg q[3];
creg c[2];
creg out[1];
ry(1.1) q[0];
h q[1];
cx q[1],q[2];
cx q[0],q[1];
h q[0];
measure q[0] -> c[0];
measure q[1] -> c[1];
if(c==1) z q[2];
if(c==2) x q[2];
if(c==3) y q[2];
measure q[2] -> out[0];
