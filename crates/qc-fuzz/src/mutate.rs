//! Mutations: small edits of a seed (flips, inserted tokens, deletions, repeats, splices, huge
//! numbers, deep nesting) so that inputs stay close enough to the grammar to reach deep code.

use rand::seq::SliceRandom;
use rand::Rng;

/// The longest mutated input, in bytes (the nesting mutation may add to it).
const MAX_LEN: usize = 64 << 10;

/// Tokens worth inserting: syntax of every format, numbers at type limits, odd characters.
const TOKENS: &[&str] = &[
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    "-",
    "+",
    "*",
    "/",
    "^",
    ".",
    ".m0",
    ".m1",
    "x",
    "=",
    "==",
    ";",
    ":",
    ",",
    " ",
    "\n",
    "\t",
    "\r\n",
    "\0",
    "pi",
    "π",
    "é",
    "0",
    "1",
    "-1",
    "8",
    "9",
    "65",
    "128",
    "129",
    "255",
    "256",
    "65535",
    "65536",
    "2147483647",
    "2147483648",
    "4294967295",
    "4294967296",
    "18446744073709551615",
    "18446744073709551616",
    "99999999999999999999999",
    "1e308",
    "1e-320",
    "NaN",
    "inf",
    "a1",
    "h8",
    "e2e4",
    "e7e8q",
    "b1^a3c3",
    "a3c3^b1",
    "O-O",
    "O-O-O",
    "K",
    "q",
    "w",
    "b",
    "-",
    "KQkq",
    "qcir 1",
    "qubits",
    "clbits",
    "measure",
    "reset",
    "alloc",
    "free",
    "ctrl(",
    "if c0==1:",
    "q0",
    "c0",
    "meas0",
    "anc0",
    "path0",
    "h",
    "cx",
    "rz(",
    "u(",
    "gate",
    "qreg",
    "creg",
    "qubit[",
    "bit[",
    "OPENQASM 2.0;",
    "OPENQASM 3.0;",
    "include \"qelib1.inc\";",
    "if (",
    "for",
    "while",
    "def",
    "[FEN \"",
    "[Variant \"",
    "\"]",
    "1.",
    "1...",
    "*",
    "1-0",
];

/// Numbers at the limits of integer and float types.
const BIG_NUMBERS: &[&str] = &[
    "2147483648",
    "4294967295",
    "4294967296",
    "18446744073709551615",
    "18446744073709551616",
    "340282366920938463463374607431768211456",
    "99999999999999999999999",
    "1e308",
    "1e-320",
    "-0",
];

/// One mutated copy of `seed`; `other` is another seed for splicing.
pub fn mutate(seed: &[u8], other: &[u8], rng: &mut impl Rng) -> Vec<u8> {
    let mut data = seed.to_vec();
    for _ in 0..rng.gen_range(1..=4) {
        mutate_once(&mut data, other, rng);
    }
    data
}

fn mutate_once(data: &mut Vec<u8>, other: &[u8], rng: &mut impl Rng) {
    let at = |rng: &mut dyn rand::RngCore, len: usize| {
        if len == 0 {
            0
        } else {
            rng.gen_range(0..=len)
        }
    };
    match rng.gen_range(0..8) {
        0 if !data.is_empty() => {
            let i = rng.gen_range(0..data.len());
            data[i] = if rng.gen_bool(0.8) {
                rng.gen_range(0x20..0x7f)
            } else {
                rng.gen()
            };
        }
        1 | 2 => {
            let token = TOKENS.choose(rng).copied().unwrap_or(" ");
            let i = at(rng, data.len());
            data.splice(i..i, token.bytes());
        }
        3 if !data.is_empty() => {
            let start = rng.gen_range(0..data.len());
            let end = (start + rng.gen_range(1..=64)).min(data.len());
            data.drain(start..end);
        }
        4 if !data.is_empty() => {
            let start = rng.gen_range(0..data.len());
            let end = (start + rng.gen_range(1..=128)).min(data.len());
            let chunk = data[start..end].to_vec();
            let times = rng.gen_range(1..=64);
            for _ in 0..times {
                if data.len() > MAX_LEN {
                    break;
                }
                data.splice(end..end, chunk.iter().copied());
            }
        }
        5 => {
            let cut = at(rng, data.len());
            let from = at(rng, other.len());
            data.truncate(cut);
            data.extend_from_slice(&other[from..]);
        }
        6 => {
            // A number somewhere replaced by one at a type's limit.
            if let Some(start) = data.iter().position(|b| b.is_ascii_digit()) {
                let end = data[start..]
                    .iter()
                    .position(|b| !b.is_ascii_digit())
                    .map_or(data.len(), |k| start + k);
                let big = BIG_NUMBERS.choose(rng).copied().unwrap_or("0");
                data.splice(start..end, big.bytes());
            }
        }
        _ => {
            // Deep nesting: a run of `(`, `-` or `[` (and the closing run after it).
            let (open, close) = *[("(", ")"), ("-", ""), ("[", "]"), ("{", "}"), ("- (", ")")]
                .choose(rng)
                .unwrap_or(&("(", ")"));
            let depth = rng.gen_range(1..=20_000);
            let i = at(rng, data.len());
            let mut run = open.repeat(depth).into_bytes();
            run.extend_from_slice(b"1");
            run.extend(close.repeat(depth).bytes());
            data.splice(i..i, run);
        }
    }
    if data.len() > 4 * MAX_LEN {
        data.truncate(4 * MAX_LEN);
    }
}
