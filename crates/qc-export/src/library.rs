//! The qchess gate library: modifier-free, phase-exact OpenQASM definitions of every gate that
//! `stdgates.inc` lacks (from `qchess_gates.inc`, plus `sxdg`, `iswapdg` and its controlled forms).
//!
//! Definitions are listed in dependency order; a program includes only those it uses (and what
//! they call). Every definition is checked against the IR gate's exact matrix in the tests.

/// One library definition.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Definition {
    /// The gate name.
    pub name: &'static str,
    /// The full `gate ... { ... }` text.
    pub text: &'static str,
    /// Library gates its body calls.
    pub deps: &'static [&'static str],
}

/// The library, in dependency order.
pub const LIBRARY: &[Definition] = &[
    Definition {
        name: "sxdg",
        text: "gate sxdg a { x a; sx a; }",
        deps: &[],
    },
    Definition {
        name: "iswap",
        text: "gate iswap a, b { s a; s b; h a; cx a, b; cx b, a; h b; }",
        deps: &[],
    },
    Definition {
        name: "iswapdg",
        text: "gate iswapdg a, b { iswap a, b; z a; z b; }",
        deps: &["iswap"],
    },
    Definition {
        name: "siswap",
        text: "gate siswap a, b { s a; ry(pi/2) b; cx b, a; ry(pi/4) a; ry(pi/4) b; cx b, a; sdg a; ry(-pi/2) b; }",
        deps: &[],
    },
    Definition {
        name: "siswapdg",
        text: "gate siswapdg a, b { s a; ry(pi/2) b; cx b, a; ry(-pi/4) a; ry(-pi/4) b; cx b, a; sdg a; ry(-pi/2) b; }",
        deps: &[],
    },
    Definition {
        name: "ciswap",
        text: "gate ciswap c, a, b { s a; ry(pi/2) b; cx b, a; cry(pi/2) c, a; cry(pi/2) c, b; cx b, a; sdg a; ry(-pi/2) b; }",
        deps: &[],
    },
    Definition {
        name: "nciswap",
        text: "gate nciswap c, a, b { x c; ciswap c, a, b; x c; }",
        deps: &["ciswap"],
    },
    Definition {
        name: "ciswapdg",
        text: "gate ciswapdg c, a, b { ciswap c, a, b; cz c, a; cz c, b; }",
        deps: &["ciswap"],
    },
    Definition {
        name: "nciswapdg",
        text: "gate nciswapdg c, a, b { x c; ciswapdg c, a, b; x c; }",
        deps: &["ciswapdg"],
    },
    Definition {
        name: "csiswap",
        text: "gate csiswap c, a, b { s a; ry(pi/2) b; cx b, a; cry(pi/4) c, a; cry(pi/4) c, b; cx b, a; sdg a; ry(-pi/2) b; }",
        deps: &[],
    },
    Definition {
        name: "ncsiswap",
        text: "gate ncsiswap c, a, b { x c; csiswap c, a, b; x c; }",
        deps: &["csiswap"],
    },
    Definition {
        name: "csiswapdg",
        text: "gate csiswapdg c, a, b { s a; ry(pi/2) b; cx b, a; cry(-pi/4) c, a; cry(-pi/4) c, b; cx b, a; sdg a; ry(-pi/2) b; }",
        deps: &[],
    },
    Definition {
        name: "ncsiswapdg",
        text: "gate ncsiswapdg c, a, b { x c; csiswapdg c, a, b; x c; }",
        deps: &["csiswapdg"],
    },
    Definition {
        name: "c3x",
        text: "gate c3x a, b, c, d { h d; p(pi/8) a; p(pi/8) b; p(pi/8) c; p(pi/8) d; cx a, b; p(-pi/8) b; cx a, b; cx b, c; p(-pi/8) c; cx a, c; p(pi/8) c; cx b, c; p(-pi/8) c; cx a, c; cx c, d; p(-pi/8) d; cx b, d; p(pi/8) d; cx c, d; p(-pi/8) d; cx a, d; p(pi/8) d; cx c, d; p(-pi/8) d; cx b, d; p(pi/8) d; cx c, d; p(-pi/8) d; cx a, d; h d; }",
        deps: &[],
    },
];

/// The definition called `name`, if it is a library gate.
pub fn definition(name: &str) -> Option<&'static Definition> {
    LIBRARY.iter().find(|d| d.name == name)
}

/// The definitions needed for the gate names in `used` (with dependencies), in library order.
pub fn needed<'a>(used: impl IntoIterator<Item = &'a str>) -> Vec<&'static Definition> {
    let mut want: Vec<&str> = Vec::new();
    let mut stack: Vec<&str> = used.into_iter().collect();
    while let Some(name) = stack.pop() {
        if let Some(def) = definition(name) {
            if !want.contains(&def.name) {
                want.push(def.name);
                stack.extend(def.deps.iter().copied());
            }
        }
    }
    LIBRARY.iter().filter(|d| want.contains(&d.name)).collect()
}
