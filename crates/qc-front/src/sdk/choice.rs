//! qchess's moves in the SDK's shape, whether the view lists one, and where the view's legal
//! moves and qchess's differ.

use super::{LegalMoveSet, MergeOption, MoveChoice, SplitOption, StandardOption};
use qc_rules::{MoveShape, QcanMove, Square};

/// A square's number (0-63 from a1).
fn number(square: Square) -> u8 {
    square.index() as u8
}

/// The SDK's answer for a QCAN move; `None` for the null move (no answer has that shape).
pub fn choice_of(mv: &QcanMove) -> Option<MoveChoice> {
    Some(match mv.shape {
        MoveShape::Standard { source, target } => MoveChoice::Standard {
            from: number(source),
            to: number(target),
            promotion: mv
                .promotion
                .map(|k| k.letter().to_ascii_lowercase().to_string()),
        },
        MoveShape::Split {
            source,
            target1,
            target2,
        } => MoveChoice::Split {
            from: number(source),
            target_a: number(target1),
            target_b: number(target2),
        },
        MoveShape::Merge {
            source1,
            source2,
            target,
        } => MoveChoice::Merge {
            source_a: number(source1),
            source_b: number(source2),
            to: number(target),
        },
        MoveShape::Null => return None,
    })
}

/// Whether the view lists `choice` as legal (a promotion must be one of its choices when the
/// view lists them).
pub fn listed(choice: &MoveChoice, legal: &LegalMoveSet) -> bool {
    match choice {
        MoveChoice::Standard {
            from,
            to,
            promotion,
        } => legal.standard.iter().any(|o| {
            o.from == *from
                && o.to == *to
                && match (&o.promotion_choices, promotion) {
                    (Some(choices), Some(p)) => choices.iter().any(|c| c.eq_ignore_ascii_case(p)),
                    (Some(choices), None) => choices.is_empty(),
                    (None, _) => true,
                }
        }),
        MoveChoice::Split {
            from,
            target_a,
            target_b,
        } => legal.splits.iter().any(|o| {
            o.from == *from
                && ((o.target_a == *target_a && o.target_b == *target_b)
                    || (o.target_a == *target_b && o.target_b == *target_a))
        }),
        MoveChoice::Merge {
            source_a,
            source_b,
            to,
        } => legal.merges.iter().any(|o| {
            o.to == *to
                && ((o.source_a == *source_a && o.source_b == *source_b)
                    || (o.source_a == *source_b && o.source_b == *source_a))
        }),
    }
}

/// Where `view.legalMoves` and qchess's own legal moves differ. The answer is chosen among the
/// moves both list, so it is legal in the app and replays here; a difference means the app's
/// rules configuration and qchess's differ, which a server reports as a warning.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LegalDifferences {
    /// Moves qchess finds legal that the view does not list (QCAN).
    pub only_here: Vec<String>,
    /// Moves the view lists that qchess does not find legal.
    pub only_in_view: Vec<MoveChoice>,
}

impl LegalDifferences {
    /// Whether the two lists agree.
    pub fn is_empty(&self) -> bool {
        self.only_here.is_empty() && self.only_in_view.is_empty()
    }
}

impl std::fmt::Display for LegalDifferences {
    /// `N move(s) only qchess finds legal (e2e4, ...); M only the view lists (...)`, at most
    /// [`DIFFERENCES_SHOWN`] of each named.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let names = |list: Vec<String>| {
            let more = list.len().saturating_sub(DIFFERENCES_SHOWN);
            let mut shown: Vec<String> = list.into_iter().take(DIFFERENCES_SHOWN).collect();
            if more > 0 {
                shown.push(format!("{more} more"));
            }
            shown.join(", ")
        };
        let in_view: Vec<String> = self
            .only_in_view
            .iter()
            .map(|c| serde_json::to_string(c).unwrap_or_default())
            .collect();
        write!(
            f,
            "{} move(s) only qchess finds legal ({}); {} only view.legalMoves lists ({})",
            self.only_here.len(),
            names(self.only_here.clone()),
            self.only_in_view.len(),
            names(in_view)
        )
    }
}

/// How many moves of each side of a [`LegalDifferences`] its text names.
pub const DIFFERENCES_SHOWN: usize = 5;

/// The moves of `view` in the SDK's shape (a standard move without its promotion piece).
fn view_choices(legal: &LegalMoveSet) -> Vec<MoveChoice> {
    let standard = legal.standard.iter().map(|o| MoveChoice::Standard {
        from: o.from,
        to: o.to,
        promotion: None,
    });
    let splits = legal.splits.iter().map(|o| MoveChoice::Split {
        from: o.from,
        target_a: o.target_a,
        target_b: o.target_b,
    });
    let merges = legal.merges.iter().map(|o| MoveChoice::Merge {
        source_a: o.source_a,
        source_b: o.source_b,
        to: o.to,
    });
    standard.chain(splits).chain(merges).collect()
}

/// Compares the view's legal moves with `here`, qchess's legal moves of the same position.
pub fn legal_differences(here: &[QcanMove], view: &LegalMoveSet) -> LegalDifferences {
    let mut mine = LegalMoveSet {
        standard: Vec::new(),
        splits: Vec::new(),
        merges: Vec::new(),
        count: None,
    };
    let mut only_here = Vec::new();
    for mv in here {
        let Some(choice) = choice_of(mv) else {
            continue;
        };
        if !listed(&choice, view) {
            only_here.push(mv.to_string());
        }
        match choice {
            MoveChoice::Standard { from, to, .. } => mine.standard.push(StandardOption {
                from,
                to,
                promotion_choices: None,
            }),
            MoveChoice::Split {
                from,
                target_a,
                target_b,
            } => mine.splits.push(SplitOption {
                from,
                target_a,
                target_b,
            }),
            MoveChoice::Merge {
                source_a,
                source_b,
                to,
            } => mine.merges.push(MergeOption {
                source_a,
                source_b,
                to,
            }),
        }
    }
    let only_in_view = view_choices(view)
        .into_iter()
        .filter(|c| !listed(c, &mine))
        .collect();
    LegalDifferences {
        only_here,
        only_in_view,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn choices_have_the_sdk_shape() {
        let json = |t: &str| {
            let mv: QcanMove = t.parse().expect(t);
            serde_json::to_string(&choice_of(&mv).expect(t)).expect("json")
        };
        assert_eq!(json("e2e4"), r#"{"type":"standard","from":12,"to":28}"#);
        assert_eq!(
            json("e7e8q"),
            r#"{"type":"standard","from":52,"to":60,"promotion":"q"}"#
        );
        assert_eq!(
            json("b1^a3c3"),
            r#"{"type":"split","from":1,"targetA":16,"targetB":18}"#
        );
        assert_eq!(
            json("a3c3^b5"),
            r#"{"type":"merge","sourceA":16,"sourceB":18,"to":33}"#
        );
        assert_eq!(choice_of(&"0000".parse().expect("null")), None);
    }
}
