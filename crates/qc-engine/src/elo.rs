//! A match's score and the Elo difference it implies, with a 95 % confidence interval.
//!
//! The score is the fraction of points (a win 1, a draw 1/2). The Elo difference of a score `s`
//! is `-400 log10(1/s - 1)` (the logistic model: 75 % is about +191). The interval is Wilson's
//! score interval for `n` games at 95 %, which stays inside `[0, 1]` and is not empty for a
//! score of 0 or 1 (20 wins of 20 still leave room down to 84 %); it counts each game as a win
//! or a loss with the same mean, so with draws it is a little wider than it need be. Its ends
//! are turned into Elo; an end at 0 or 1 is infinite.

use serde::Serialize;

/// Games won, drawn and lost by the first player.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Tally {
    /// Wins.
    pub wins: u32,
    /// Draws.
    pub draws: u32,
    /// Losses.
    pub losses: u32,
}

/// The normal quantile of a two-sided 95 % interval.
const Z95: f64 = 1.959_964;

/// The Elo difference of a score fraction (`+-inf` at 1 and 0).
pub fn elo_of(score: f64) -> f64 {
    if score >= 1.0 {
        f64::INFINITY
    } else if score <= 0.0 {
        f64::NEG_INFINITY
    } else {
        -400.0 * (1.0 / score - 1.0).log10()
    }
}

impl Tally {
    /// Adds one game's points for the first player (1, 0.5 or 0).
    pub fn add(&mut self, points: f64) {
        if points >= 1.0 {
            self.wins += 1;
        } else if points <= 0.0 {
            self.losses += 1;
        } else {
            self.draws += 1;
        }
    }

    /// Games played.
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// The fraction of points (0.5 with no games).
    pub fn score(&self) -> f64 {
        let n = self.games();
        if n == 0 {
            return 0.5;
        }
        (f64::from(self.wins) + 0.5 * f64::from(self.draws)) / f64::from(n)
    }

    /// The Elo difference the score implies.
    pub fn elo(&self) -> f64 {
        elo_of(self.score())
    }

    /// The score's 95 % confidence interval, within `[0, 1]`.
    pub fn score_interval(&self) -> (f64, f64) {
        let n = f64::from(self.games());
        if n == 0.0 {
            return (0.0, 1.0);
        }
        let s = self.score();
        let z2 = Z95 * Z95;
        let scale = 1.0 + z2 / n;
        let centre = (s + z2 / (2.0 * n)) / scale;
        let half = Z95 / scale * (s * (1.0 - s) / n + z2 / (4.0 * n * n)).sqrt();
        ((centre - half).max(0.0), (centre + half).min(1.0))
    }

    /// The Elo difference's 95 % confidence interval.
    pub fn elo_interval(&self) -> (f64, f64) {
        let (low, high) = self.score_interval();
        (elo_of(low), elo_of(high))
    }
}

/// An Elo difference as reports write it: `+191`, `-35`, `+inf`.
pub fn format_elo(elo: f64) -> String {
    if elo.is_infinite() {
        if elo > 0.0 { "+inf" } else { "-inf" }.into()
    } else {
        format!("{elo:+.0}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_of_known_scores() {
        assert!((elo_of(0.75) - 190.848).abs() < 1e-3);
        assert!(elo_of(0.5).abs() < 1e-12);
        assert!((elo_of(0.25) + 190.848).abs() < 1e-3);
        assert_eq!(elo_of(1.0), f64::INFINITY);
    }

    #[test]
    fn tally_and_interval() {
        let mut t = Tally::default();
        for p in [1.0, 1.0, 1.0, 0.5, 0.0, 1.0, 1.0, 0.5] {
            t.add(p);
        }
        assert_eq!((t.wins, t.draws, t.losses), (5, 2, 1));
        assert!((t.score() - 0.75).abs() < 1e-12);
        // Wilson's interval for 6 of 8 at 95 %: 0.4093 to 0.9285 (by hand from the formula).
        let (low, high) = t.score_interval();
        assert!((low - 0.4093).abs() < 1e-4, "{low}");
        assert!((high - 0.9285).abs() < 1e-4, "{high}");
        assert!(t.elo_interval().0 < 190.0 && t.elo_interval().1 > 191.0);
        let all = Tally {
            wins: 20,
            draws: 0,
            losses: 0,
        };
        let (low, high) = all.score_interval();
        assert!((low - 0.8389).abs() < 1e-4, "{low}");
        assert_eq!(high, 1.0);
        assert_eq!(format_elo(all.elo()), "+inf");
        assert_eq!(format_elo(all.elo_interval().0), "+287");
    }
}
