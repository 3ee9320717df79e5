//! Niel's Chess game files: `[Tag "value"]` lines, then whitespace-separated moves in Niel's
//! notation (with recorded outcomes in brackets), move numbers (`12.`, `12...`), comments in
//! braces `{...}` or from `;` to the end of the line, and an optional result token. The QCAN
//! game-file reader cannot be reused: Niel's tokens contain `[`, `^`, `&`, `@`, `~`, `*`, `:`.
//!
//! Tags the reader understands: `FEN` (the start position, FEN-like) and `Variant` (rule
//! options as [`NielsRules`] parses them); every other tag is kept as text. The file is read
//! into the game-file model every ruleset shares, [`GameFile`] ([`NielsRecord`]), every move
//! read once.

use super::error::{GameFileProblem, NielsError};
use super::moves::RolledMove;
use super::position::{NielsPosition, NielsRules};
use crate::ruleset::{
    first_ply, move_text, without_bom, write_move_text, Comment, FileOrder, GameFile, GameResult,
    MoveTextToken, Tag, Wrap, WrittenMove,
};
use std::fmt::Write;

/// A Niel's Chess game file: tags (other than `FEN` and `Variant`), the start position under
/// the rules in force, the moves and the result token.
pub type NielsRecord = GameFile<NielsPosition, RolledMove>;

/// A file's tags and move tokens, before the tokens are read as moves.
#[derive(Default)]
struct Tokens {
    tags: Vec<Tag>,
    moves: Vec<WrittenMove<String>>,
    result: Option<GameResult>,
    comments: Vec<Comment>,
}

fn bad(line: usize, column: usize, problem: GameFileProblem) -> NielsError {
    NielsError::GameFile {
        line,
        column,
        problem,
    }
}

fn is_move_number(token: &str) -> bool {
    token.ends_with('.')
        && token
            .trim_end_matches('.')
            .chars()
            .all(|c| c.is_ascii_digit())
        && token.chars().next().is_some_and(|c| c.is_ascii_digit())
}

/// Reads a tag line (line `number`) with the reader every ruleset shares.
fn parse_tag(line: &str, number: usize) -> Result<Tag, NielsError> {
    Tag::parse_line(line)
        .map_err(|problem| bad(number, problem.column(), GameFileProblem::Tag(problem)))
}

/// Splits a game file into tags and move tokens; errors give the line and column. A leading
/// byte-order mark is no part of the text, and the parts must come in the order every ruleset's
/// reader checks ([`FileOrder`]).
fn tokens(text: &str) -> Result<Tokens, NielsError> {
    let mut record = Tokens::default();
    let mut order = FileOrder::default();
    let mut in_comment: Option<(usize, usize)> = None;
    // The text of the `{...}` comment being read.
    let mut comment = String::new();
    for (index, line) in without_bom(text).lines().enumerate() {
        if in_comment.is_some() {
            // The comment goes on over a line break.
            comment.push('\n');
        }
        let number = index + 1;
        let trimmed = line.trim();
        if in_comment.is_none() && trimmed.starts_with('[') {
            let tag = parse_tag(line, number)?;
            let column = line.chars().take_while(|c| c.is_whitespace()).count() + 1;
            order
                .tag(tag.name.eq_ignore_ascii_case("FEN"))
                .map_err(|problem| bad(number, column, problem.into()))?;
            record.tags.push(tag);
            continue;
        }
        // A token's start: its byte offset and its column (counted once, as the line is
        // walked, so that a long line is read in linear time).
        let mut token_start: Option<(usize, usize)> = None;
        let chars: Vec<(usize, char)> = line.char_indices().collect();
        let mut flush = |start: Option<(usize, usize)>,
                         end: usize,
                         rec: &mut Tokens|
         -> Result<(), NielsError> {
            if let Some((s, column)) = start {
                let token = &line[s..end];
                let result = GameResult::from_token(token);
                order
                    .word(token, result.is_some())
                    .map_err(|problem| bad(number, column, problem.into()))?;
                if let Some(result) = result {
                    rec.result = Some(result);
                } else if !is_move_number(token) {
                    rec.moves.push(WrittenMove {
                        mv: token.to_string(),
                        line: number,
                        column,
                    });
                }
            }
            Ok(())
        };
        let mut i = 0;
        while i < chars.len() {
            let (at, c) = chars[i];
            if in_comment.is_some() {
                if c == '}' {
                    in_comment = None;
                    record.comments.push(Comment {
                        after: record.moves.len(),
                        text: std::mem::take(&mut comment),
                        to_line_end: false,
                    });
                } else {
                    comment.push(c);
                }
            } else if c == '{' {
                flush(token_start.take(), at, &mut record)?;
                in_comment = Some((number, i + 1));
            } else if c == ';' {
                flush(token_start.take(), at, &mut record)?;
                record.comments.push(Comment {
                    after: record.moves.len(),
                    text: line[at + 1..].to_string(),
                    to_line_end: true,
                });
                break;
            } else if c.is_whitespace() {
                flush(token_start.take(), at, &mut record)?;
            } else if token_start.is_none() {
                token_start = Some((at, i + 1));
            }
            i += 1;
        }
        let end = if i < chars.len() {
            chars[i].0
        } else {
            line.len()
        };
        flush(token_start.take(), end, &mut record)?;
    }
    if let Some((line, column)) = in_comment {
        return Err(bad(line, column, GameFileProblem::UnclosedComment));
    }
    Ok(record)
}

/// Reads the move tokens as moves; a bad one is named by its number in the list and where it
/// was written.
fn read_moves(
    tokens: Vec<WrittenMove<String>>,
) -> Result<Vec<WrittenMove<RolledMove>>, NielsError> {
    tokens
        .into_iter()
        .enumerate()
        .map(|(index, token)| match token.mv.parse::<RolledMove>() {
            Ok(mv) => Ok(WrittenMove {
                mv,
                line: token.line,
                column: token.column,
            }),
            Err(source) => Err(NielsError::BadMove {
                number: index + 1,
                text: token.mv,
                line: token.line,
                column: token.column,
                source: Box::new(source),
            }),
        })
        .collect()
}

impl NielsRecord {
    /// Reads a game file: its `Variant` tag's rules (or `options`, which override them), its
    /// `FEN` tag's start position (or the standard 8x8 start) and its moves. Errors give the
    /// line and column.
    pub fn read(text: &str, options: Option<&str>) -> Result<NielsRecord, NielsError> {
        let tokens = tokens(text)?;
        let tag = |name: &str| {
            tokens
                .tags
                .iter()
                .find(|t| t.name.eq_ignore_ascii_case(name))
                .map(|t| t.value.as_str())
        };
        let rules: NielsRules = options
            .or_else(|| tag("Variant"))
            .unwrap_or("simplified")
            .parse()?;
        let start = match tag("FEN") {
            Some(fen) => NielsPosition::from_fen(fen, rules)?,
            None => NielsPosition::start(rules),
        };
        Ok(GameFile {
            tags: tokens
                .tags
                .into_iter()
                .filter(|t| {
                    !t.name.eq_ignore_ascii_case("Variant") && !t.name.eq_ignore_ascii_case("FEN")
                })
                .collect(),
            start,
            moves: read_moves(tokens.moves)?,
            result: tokens.result,
            comments: tokens.comments,
        })
    }

    /// Reads a game file under the rules its `Variant` tag names ([`NielsRecord::read`]).
    pub fn parse(text: &str) -> Result<NielsRecord, NielsError> {
        NielsRecord::read(text, None)
    }

    /// Reads a move list (as `--moves` gives it, move numbers and comments allowed): the
    /// moves, with line and column 0.
    pub fn read_move_list(text: &str) -> Result<Vec<WrittenMove<RolledMove>>, NielsError> {
        let unplaced = tokens(text)?
            .moves
            .into_iter()
            .map(|t| WrittenMove::unplaced(t.mv))
            .collect();
        read_moves(unplaced)
    }

    /// The file text: tags, a blank line, then `record` (a move list such as
    /// `NielsGame::record` gives) wrapped at about 80 columns.
    pub fn write(tags: &[Tag], record: &str) -> String {
        let tokens: Vec<MoveTextToken> = record
            .split_whitespace()
            .map(|t| MoveTextToken::Move(t.to_string()))
            .collect();
        NielsRecord::write_tokens(tags, &tokens)
    }

    /// The file text: tags, a blank line, then the move text `tokens` ([`move_text`]) wrapped at
    /// about 80 columns.
    pub fn write_tokens(tags: &[Tag], tokens: &[MoveTextToken]) -> String {
        let mut out = String::new();
        for tag in tags {
            let _ = writeln!(out, "{tag}");
        }
        if !tags.is_empty() {
            out.push('\n');
        }
        write_move_text(&mut out, tokens, Wrap::Columns(80));
        out
    }

    /// The game file of `moves` played from `start` (the moves as played, their outcomes
    /// written in), with `tags` (the rule options and the start position added), `comments`
    /// at their places and `result`.
    pub fn write_game(
        tags: &[Tag],
        start: &NielsPosition,
        moves: &[String],
        comments: &[Comment],
        result: Option<GameResult>,
    ) -> String {
        let mut all = tags.to_vec();
        all.push(Tag::new("Variant", start.rules.to_string()));
        all.push(Tag::new("FEN", start.to_fen()));
        let first = first_ply(start.side_to_move, start.fullmove_number);
        NielsRecord::write_tokens(&all, &move_text(first, moves, comments, result))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_tags_moves_comments_and_skips_numbers_and_results() {
        let text = "; a header comment\n[Event \"test\"]\n[FEN \"rnbk/pppp/PPPP/RNBK w - - 0 1\"]\n[Variant \"full+tunnelling\"]\n\n1. b2^b3c3 {a split\nover two lines} c3b2 ; taken\n2. e1*e5[e1] f5e6[e6] *\n";
        let r = NielsRecord::parse(text).expect("parses");
        let moves: Vec<String> = r.moves.iter().map(|m| m.mv.to_string()).collect();
        assert_eq!(moves, ["b2^b3c3", "c3b2", "e1*e5[e1]", "f5e6[e6]"]);
        assert_eq!((r.moves[1].line, r.moves[1].column), (7, 17));
        assert_eq!((r.moves[2].line, r.moves[2].column), (8, 4));
        assert_eq!(r.tags, [Tag::new("Event", "test")]);
        assert_eq!(r.result, Some(GameResult::Unknown));
        let rules = r.start.rules;
        assert!(rules.full_marks && rules.tunnelling && !rules.hadamard);
        assert_eq!(r.start.width, 4);
        let forced = NielsRecord::read(text, Some("hadamard")).expect("options override");
        assert!(forced.start.rules.hadamard && !forced.start.rules.tunnelling);
    }

    #[test]
    fn columns_count_characters_on_long_lines() {
        // Two-byte characters in a comment before each move: columns count characters, not bytes.
        let unit = "{é} a1a2 ";
        let line = unit.repeat(20_000);
        let r = NielsRecord::parse(&line).expect("parses");
        assert_eq!(r.moves.len(), 20_000);
        let width = unit.chars().count();
        assert_eq!(r.moves[0].column, 5);
        assert_eq!(r.moves[19_999].column, 19_999 * width + 5);
    }

    #[test]
    fn errors_name_the_line() {
        let err = NielsRecord::parse("1. e2e4\n[FEN \"x\"]\n").expect_err("tag after moves");
        assert!(err.to_string().contains("line 2"), "{err}");
        let err = NielsRecord::parse("e2e4 {open\n").expect_err("open comment");
        assert!(err.to_string().contains("line 1, column 6"), "{err}");
        let err = NielsRecord::parse("[FEN x]\n").expect_err("unquoted");
        assert!(err.to_string().contains("double quotes"), "{err}");
        let err = NielsRecord::parse("1. e2e4 e7e5\n2. e4x9").expect_err("bad move");
        assert_eq!(
            err.to_string(),
            "move 3 `e4x9`, line 2, column 4: bad Niel's move `e4x9`: expected a square like e4 \
             (at column 4)"
        );
        let err = NielsRecord::read_move_list("e2e4 ~9").expect_err("bad move");
        assert_eq!(
            err.to_string(),
            "move 2 `~9`: bad Niel's move `~9`: expected a square like e4 (at column 2)"
        );
    }

    #[test]
    fn written_files_read_back() {
        let tags = vec![Tag::new("Event", "test"), Tag::new("Variant", "hadamard")];
        let text = NielsRecord::write(&tags, "1. e2^e4e3 e7e5 2. Hd4[d4]");
        let r = NielsRecord::parse(&text).expect("reads back");
        assert_eq!(r.tags, tags[..1]);
        assert!(r.start.rules.hadamard);
        let moves: Vec<String> = r.moves.iter().map(|m| m.mv.to_string()).collect();
        assert_eq!(moves, ["e2^e4e3", "e7e5", "Hd4[d4]"]);
    }
}
