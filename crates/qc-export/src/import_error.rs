//! The typed error of the OpenQASM readers: where ([`ImportError`]'s line and column) and what
//! ([`ImportErrorKind`], one variant per thing that can be wrong, with its names and counts), so
//! that callers match on the kind instead of reading a message.

use qc_ir::angle::AngleError;
use thiserror::Error;

/// Why an OpenQASM text could not be imported: where (1-based line and column; 0 when unknown)
/// and what was wrong ([`ImportError::kind`]).
#[derive(Debug, Error, Clone, PartialEq)]
#[error("{}{kind}", position(*.line, *.column))]
pub struct ImportError {
    /// 1-based line of the offending construct (0 when unknown).
    pub line: usize,
    /// 1-based column (in characters) of the offending construct (0 when unknown).
    pub column: usize,
    /// What was wrong, naming the construct.
    pub kind: ImportErrorKind,
    /// Byte offset, until [`ImportError::locate`] turns it into line and column.
    offset: Option<usize>,
}

/// What was wrong with an imported program ([`ImportError::kind`]).
#[derive(Debug, Error, Clone, PartialEq)]
#[non_exhaustive]
pub enum ImportErrorKind {
    // --- The text itself (both versions).
    /// A `/*` comment without its `*/`.
    #[error("unterminated `/*` comment")]
    UnterminatedComment,
    /// A string without its closing quote on the same line.
    #[error("unterminated string")]
    UnterminatedString,
    /// The OpenQASM 3 parser's own syntax error.
    #[error("{parser_message}")]
    Syntax {
        /// The parser's description of the error.
        parser_message: String,
    },
    /// The OpenQASM 3 parser stopped on an internal assertion (a panic, contained).
    #[error(
        "cannot read this program: the OpenQASM 3 parser stopped on an internal check \
         (`{panic}`) without saying where; look for a keyword or symbol out of place"
    )]
    ParserPanic {
        /// The parser's panic message.
        panic: String,
    },
    /// The OpenQASM 3 parser found no program in the text.
    #[error("no program")]
    NoProgram,
    /// The OpenQASM 3 semantic pass found a syntax error the first parse did not.
    #[error("OpenQASM 3 syntax error")]
    LateSyntax,
    /// A name the OpenQASM 3 symbol table could not resolve.
    #[error("unresolved name ({detail})")]
    Unresolved {
        /// The symbol table's reason.
        detail: String,
    },
    /// A finding of `oq3_semantics`' checks, quoting the construct.
    #[error("{problem}: `{text}`")]
    Semantic {
        /// What the check found.
        problem: SemanticProblem,
        /// The construct's source text (at most 60 characters).
        text: String,
    },

    // --- Limits that keep hostile input cheap.
    /// Brackets nested too deep.
    #[error("brackets nested deeper than {max} levels")]
    NestingTooDeep {
        /// The limit.
        max: usize,
    },
    /// Too many operators in one statement.
    #[error("a statement with more than {max} operators")]
    TooManyOperators {
        /// The limit.
        max: usize,
    },
    /// Too many signs (`-`, `+`, `!`, `~`) in a row.
    #[error("more than {max} signs in a row")]
    TooManySigns {
        /// The limit.
        max: usize,
    },
    /// One register larger than the limit.
    #[error("register `{name}[{size}]` is larger than {max}")]
    RegisterTooLarge {
        /// The register.
        name: String,
        /// Its declared size.
        size: usize,
        /// The limit.
        max: usize,
    },
    /// A physical qubit `$k` beyond the largest register.
    #[error("physical qubit `${digits}` is beyond the largest register ({max} qubits)")]
    PhysicalQubitTooLarge {
        /// Its number as written.
        digits: String,
        /// The limit.
        max: usize,
    },
    /// All registers of one kind together larger than the limit.
    #[error("more than {max} {} in total", if *.quantum { "qubits" } else { "bits" })]
    TooManyBits {
        /// Qubits (true) or bits.
        quantum: bool,
        /// The limit.
        max: usize,
    },
    /// User gates that call user gates too deep.
    #[error("gate `{gate}` nests user gates deeper than {max}")]
    GateNestingTooDeep {
        /// The gate being expanded.
        gate: String,
        /// The limit.
        max: usize,
    },
    /// One call expanding to too many instructions.
    #[error("gate `{gate}` expands to more than {max} instructions")]
    GateTooLarge {
        /// The gate.
        gate: String,
        /// The limit.
        max: usize,
    },
    /// The whole program too long.
    #[error("the program has more than {max} instructions")]
    TooManyInstructions {
        /// The limit.
        max: usize,
    },
    /// An integer literal larger than the reader accepts.
    #[error("integer `{text}` is out of range (at most {max})")]
    IntegerTooLarge {
        /// The literal.
        text: String,
        /// The largest accepted value.
        max: u64,
    },

    // --- Tokens out of place (OpenQASM 2's reader).
    /// Not an OpenQASM 2 program.
    #[error("not an OpenQASM 2 program (expected `OPENQASM 2.0;`)")]
    NotQasm2,
    /// A version line for another version.
    #[error("unsupported OpenQASM version `{version}`")]
    UnsupportedVersion {
        /// The version given.
        version: String,
    },
    /// The text ends inside a statement.
    #[error("unexpected end of file")]
    UnexpectedEnd,
    /// One token where another was expected.
    #[error("expected `{expected}`, found `{found}`")]
    Expected {
        /// The token expected.
        expected: String,
        /// The token found.
        found: String,
    },
    /// A token where a name was expected.
    #[error("expected a name, found `{found}`")]
    ExpectedName {
        /// The token found.
        found: String,
    },
    /// A token where an integer was expected.
    #[error("expected an integer of at most {max}, found `{found}`")]
    ExpectedInteger {
        /// The token found.
        found: String,
        /// The largest accepted integer.
        max: usize,
    },
    /// A parameter list without its `)`.
    #[error("missing `)`")]
    MissingParen,

    // --- Constructs outside the supported subset.
    /// An OpenQASM 2 `include` of another file than `qelib1.inc`.
    #[error("unsupported include {file} (only qelib1.inc is known)")]
    Include2 {
        /// The file name as written (quoted).
        file: String,
    },
    /// An OpenQASM 3 `include` of another file than `stdgates.inc`.
    #[error("unsupported `{statement}` (OpenQASM 3 programs may include only \"stdgates.inc\")")]
    Include3 {
        /// The statement as written, without its `;`.
        statement: String,
    },
    /// An OpenQASM 2 `opaque` gate.
    #[error("`opaque` gates cannot be simulated")]
    Opaque,
    /// A set as an index (`q[{0, 1}]`).
    #[error("unsupported set index `[{{...}}]`")]
    SetIndex,
    /// A construct of OpenQASM 3 the reader does not support.
    #[error("unsupported construct: {construct}")]
    UnsupportedConstruct {
        /// The construct's name in words.
        construct: String,
    },
    /// A statement kind the reader does not support, at top level or in a gate body.
    #[error("unsupported statement: {statement}{}", .gate.as_ref().map(|g| format!(" inside gate `{g}`")).unwrap_or_default())]
    UnsupportedStatement {
        /// The statement kind.
        statement: String,
        /// The gate whose body holds it, if any.
        gate: Option<String>,
    },
    /// A `for` loop without one of its parts.
    #[error("a `for` loop needs {missing}")]
    LoopSyntax {
        /// What is missing, in words.
        missing: &'static str,
    },
    /// A gate call inside an expression.
    #[error("a gate call inside an expression")]
    GateCallInExpression,
    /// A gate call without a gate name.
    #[error("a gate call without a gate name")]
    GateCallWithoutName,
    /// `()` with no parameter.
    #[error("an empty parameter list `()`")]
    EmptyParameterList,
    /// A `{ }` block outside `gate` and `if`.
    #[error("a block outside `gate` and `if`")]
    StrayBlock,
    /// A delay whose duration is not a duration literal in `s`, `ms`, `us`/`µs` or `ns` that is
    /// finite and not negative (a duration in `dt`, the device's own sample time, has no length
    /// here).
    #[error("a delay's duration must be a literal in s, ms, us or ns, finite and not negative; found {found}")]
    DelayDuration {
        /// What was found, in words.
        found: String,
    },
    /// A classical assignment other than `c = measure q;`.
    #[error("unsupported classical assignment (only `c = measure q;`)")]
    ClassicalAssignment,
    /// A register size that is not an integer literal.
    #[error("a register size must be an integer literal")]
    RegisterSizeNotLiteral,
    /// A classical declaration of another type than `bit`/`bit[n]`.
    #[error("unsupported classical declaration (only `bit` and `bit[n]` registers are supported)")]
    ClassicalDeclaration,
    /// A qubit declaration of an unsupported shape.
    #[error("unsupported qubit declaration")]
    QubitDeclaration,
    /// An initializer or `const` on a bit declaration.
    #[error("unsupported initializer or `const` on a bit declaration")]
    BitInitializer,
    /// A binary operator outside `+ - * / == !=`.
    #[error("unsupported operator `{operator}` (only + - * / == != are supported)")]
    Operator {
        /// The operator.
        operator: String,
    },
    /// A prefix operator other than `-`.
    #[error("unsupported prefix operator `{operator}` (write `c[0] == false` for `!c[0]`)")]
    PrefixOperator {
        /// The operator.
        operator: String,
    },
    /// `-` before something that is not a number.
    #[error("unary minus on a non-number")]
    MinusOnNonNumber,
    /// A literal without a token.
    #[error("empty literal")]
    EmptyLiteral,
    /// A number that is not a plain decimal.
    #[error("bad number `{text}`")]
    BadNumber {
        /// The literal.
        text: String,
    },
    /// A string, bit string or other literal.
    #[error("unsupported literal `{text}`")]
    UnsupportedLiteral {
        /// The literal.
        text: String,
    },
    /// An `if` as the body of an `if` without braces.
    #[error("an `if` as the body of an `if` needs braces (`if (a) {{ if (b) ... }}`)")]
    NestedIf,
    /// `else if`, which the importer does not read.
    #[error("`else if` is not supported (write `else {{ if (...) {{ ... }} }}`)")]
    ElseIf,
    /// A declaration inside an `if` or `for` body.
    #[error(
        "declaration inside `if` or `for` (declare registers and gates at the top of the program)"
    )]
    DeclarationInIf,
    /// A control count that is not a positive integer literal.
    #[error("a control count must be a positive integer literal")]
    ControlCount,
    /// The `pow @` modifier.
    #[error("the `pow @` modifier is not supported")]
    Pow,
    /// An operator in an angle the reader does not evaluate.
    #[error("unsupported operator in an angle")]
    AngleOperator,
    /// An angle expression the reader does not evaluate.
    #[error("unsupported angle expression")]
    AngleExpression,
    /// A name in an angle that is neither a constant nor a gate parameter.
    #[error("`{name}` is not a constant or a gate parameter")]
    NotAConstant {
        /// The name.
        name: String,
    },
    /// An integer division by zero (both operands integers, as OpenQASM 3 types them: `1/0`).
    #[error("integer division by zero")]
    IntegerDivisionByZero,
    /// Integer arithmetic beyond 128 bits.
    #[error("integer arithmetic overflows 128 bits")]
    IntegerOverflow,
    /// An index that is not one integer expression or one range.
    #[error("an index is one integer expression (`q[2 * i]`) or one range (`q[0:2]`)")]
    IndexNotInteger,
    /// A negative index (OpenQASM's counting from the end is not supported).
    #[error("index {index} of `{register}` is negative")]
    NegativeIndex {
        /// The register.
        register: String,
        /// The index's value (at least `i64::MIN`).
        index: i64,
    },
    /// A range (a slice or a loop's) whose step is 0.
    #[error("a range with step 0")]
    RangeStepZero,
    /// A `for` loop over something else than a range or a set of integers.
    #[error("a `for` loop runs over a range `[a:b]` or a set `{{a, b}}` of integers")]
    LoopIterable,
    /// A value of a loop's range or set that is not an integer.
    #[error("a `for` loop's values must be integers")]
    LoopValueNotInteger,
    /// Loops that run too many iterations (they are unrolled; an iteration counts as an
    /// instruction).
    #[error("the loops run more than {max} iterations and instructions in all (loops are unrolled, and every iteration counts as an instruction)")]
    TooManyIterations {
        /// The limit.
        max: usize,
    },
    /// An operand other than a register or one element.
    #[error("unsupported operand")]
    Operand,
    /// A condition operator other than `==`/`!=`.
    #[error("unsupported condition operator")]
    ConditionOperator,
    /// A condition compared with something else than a constant (a bit with true, false, 0 or
    /// 1; a register with a non-negative integer).
    #[error("a condition compares a bit with true, false, 0 or 1, or a register with a non-negative integer constant")]
    ConditionValue,
    /// A register comparison on more bits than a condition reads.
    #[error("a comparison of `{register}` ({width} bits) reads more than {max} bits")]
    ConditionTooWide {
        /// The register (or slice) as written.
        register: String,
        /// Its width.
        width: usize,
        /// The limit.
        max: usize,
    },
    /// Nested conditions that would write one statement too many times (each comparison's
    /// negation is one case per bit, and nesting multiplies them).
    #[error("the nested conditions here have more than {max} cases")]
    TooManyCases {
        /// The limit.
        max: usize,
    },
    /// A measurement governed by a disjunction (the `else` or `!=` of a register comparison, or
    /// `if (c)` on a register), which is written once per case: its bit would be written by
    /// several measurements.
    #[error("a measurement under a condition that is {cases} cases (the `else` or `!=` of a register comparison, or `if (c)` on a register): a bit is written by one measurement, so write the measurement outside the `if`")]
    MeasureInCases {
        /// How many cases.
        cases: usize,
    },
    /// A second measurement into one bit: a circuit's bits are written once each.
    #[error("bit `{bit}` is measured a second time; qchess's circuits write each bit once (measure into another bit)")]
    BitMeasuredTwice {
        /// The bit as the program names it.
        bit: String,
    },
    /// An OpenQASM 2 operand in a gate body that is not one of the gate's qubit arguments.
    #[error("`{argument}` is not a qubit argument of gate `{gate}`")]
    NotAGateArgument {
        /// The operand as written.
        argument: String,
        /// The gate being defined.
        gate: String,
    },
    /// An OpenQASM 3 operand in a gate body that is not one of the gate's qubit arguments.
    #[error("operands inside gate `{gate}` must be its qubit arguments")]
    GateBodyOperand {
        /// The gate being defined.
        gate: String,
    },

    // --- Names, counts and operands.
    /// A register declared twice.
    #[error("register `{name}` is declared twice")]
    RegisterRedeclared {
        /// The register.
        name: String,
    },
    /// A register used but never declared.
    #[error("undeclared {} register `{name}`", if *.quantum { "qubit" } else { "bit" })]
    UndeclaredRegister {
        /// Qubits (true) or bits.
        quantum: bool,
        /// The register.
        name: String,
    },
    /// An index past the end of its register.
    #[error("index {index} is out of range for `{register}[{size}]`")]
    IndexOutOfRange {
        /// The register.
        register: String,
        /// The index given.
        index: usize,
        /// The register's size.
        size: usize,
    },
    /// A call of a gate neither builtin nor defined.
    #[error("unknown gate `{gate}` with {params} parameter(s)")]
    UnknownGate {
        /// The gate.
        gate: String,
        /// The number of parameters of the call.
        params: usize,
    },
    /// A call inside a gate definition of a gate not known there.
    #[error("unknown gate `{called}` in gate `{gate}`")]
    UnknownGateInDefinition {
        /// The gate called.
        called: String,
        /// The gate being defined.
        gate: String,
    },
    /// A user gate called with the wrong numbers of parameters or qubits.
    #[error("gate `{gate}` takes {params} parameter(s) and {qubits} qubit(s), got {found_params} and {found_qubits}")]
    UserGateArity {
        /// The gate.
        gate: String,
        /// Parameters it takes.
        params: usize,
        /// Qubits it takes.
        qubits: usize,
        /// Parameters given.
        found_params: usize,
        /// Qubits given.
        found_qubits: usize,
    },
    /// A builtin gate called with the wrong number of qubits (controls included).
    #[error("gate `{gate}` takes {expected} qubit(s), got {found}")]
    GateQubits {
        /// The gate.
        gate: String,
        /// Qubits it takes with the call's modifiers.
        expected: usize,
        /// Qubits given.
        found: usize,
    },
    /// Fewer operands than a call's control modifiers need.
    #[error("`{gate}`: not enough operands for its control modifiers")]
    TooFewControls {
        /// The gate.
        gate: String,
    },
    /// `gphase` with qubit operands.
    #[error("`gphase` takes no qubit operands")]
    GphaseOperands,
    /// One operand of a user gate's body call given twice.
    #[error("operand {operand} of `{gate}` is used twice in one gate")]
    OperandRepeated {
        /// 1-based operand number.
        operand: usize,
        /// The gate called.
        gate: String,
    },
    /// One qubit given twice to one call.
    #[error("qubit {qubit} is used twice in one gate")]
    QubitRepeated {
        /// The flat qubit index.
        qubit: usize,
    },
    /// Register operands of one call with different sizes.
    #[error("`{gate}`: register operands of different sizes")]
    OperandSizes {
        /// The gate.
        gate: String,
    },
    /// `measure` of a number of qubits into another number of bits.
    #[error("measure: {qubits} qubit(s) into {bits} bit(s)")]
    MeasureSizes {
        /// Qubits measured.
        qubits: usize,
        /// Bits written.
        bits: usize,
    },
    /// An angle that does not parse or evaluate.
    #[error(transparent)]
    Angle(#[from] AngleError),
}

/// What `oq3_semantics`' checks found ([`ImportErrorKind::Semantic`]); its own kinds, mirrored so
/// that the public API does not expose the parser's types.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum SemanticProblem {
    /// A name used but not declared.
    #[error("undeclared name")]
    UndeclaredName,
    /// A gate neither standard (with `stdgates.inc` included) nor defined.
    #[error("unknown gate")]
    UnknownGate,
    /// A gate unknown because the program defines a standard gate itself, so `stdgates.inc` is
    /// not included for it.
    #[error(
        "unknown gate (the program defines a standard gate, so `stdgates.inc` is not included \
         for it)"
    )]
    UnknownGateNoStdgates,
    /// A name declared twice.
    #[error("`{name}` is declared twice")]
    Redeclared {
        /// The name.
        name: String,
    },
    /// An expression where a constant integer is needed.
    #[error("expected a constant integer")]
    ConstInteger,
    /// Types that do not fit together.
    #[error("incompatible types")]
    IncompatibleTypes,
    /// Dimensions that do not fit together.
    #[error("incompatible dimensions")]
    IncompatibleDimensions,
    /// More indices than dimensions.
    #[error("too many indices")]
    TooManyIndexes,
    /// A conversion that is not allowed.
    #[error("invalid conversion")]
    Cast,
    /// An assignment to a constant.
    #[error("assignment to a constant")]
    MutateConst,
    /// A declaration that must be global, elsewhere.
    #[error("declaration outside the global scope")]
    NotGlobal,
    /// An `include` not at global scope.
    #[error("`include` outside the global scope")]
    IncludeNotGlobal,
    /// A `return` outside a subroutine.
    #[error("`return` outside a subroutine")]
    ReturnInGlobalScope,
    /// A gate call with the wrong number of parameters.
    #[error("wrong number of gate parameters")]
    GateParams,
    /// A gate call with the wrong number of qubits.
    #[error("wrong number of qubits")]
    GateQubits,
}

impl ImportError {
    pub(crate) fn at_offset(offset: Option<usize>, kind: ImportErrorKind) -> ImportError {
        ImportError {
            line: 0,
            column: 0,
            kind,
            offset,
        }
    }

    /// The byte offset, before [`ImportError::locate`].
    pub(crate) fn offset(&self) -> Option<usize> {
        self.offset
    }

    /// The same error at byte `offset` (before [`ImportError::locate`]).
    pub(crate) fn moved_to(self, offset: Option<usize>) -> ImportError {
        ImportError { offset, ..self }
    }

    /// Fills in line and column from the byte offset in `src` (once, when the error leaves the
    /// importer).
    pub(crate) fn locate(mut self, src: &str) -> ImportError {
        if let Some(offset) = self.offset.take() {
            let mut offset = offset.min(src.len());
            while !src.is_char_boundary(offset) {
                offset -= 1;
            }
            let before = &src[..offset];
            let line_start = before.rfind('\n').map_or(0, |i| i + 1);
            self.line = before.matches('\n').count() + 1;
            self.column = before[line_start..].chars().count() + 1;
        }
        self
    }
}

/// `line L, column C: ` for an [`ImportError`] whose position is known, nothing when it is not
/// (line 0), so that no message names a position that does not exist.
fn position(line: usize, column: usize) -> String {
    if line == 0 {
        String::new()
    } else {
        format!("line {line}, column {column}: ")
    }
}
