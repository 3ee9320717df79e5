//! Lines between two pieces that do not cross other pieces.
//!
//! First choice: a quadratic curve from one piece to the other, straight when nothing is in the
//! way, else bent to one side by the least bend that keeps a clearance from every other piece.
//! On a crowded board no such curve may exist; then the line runs along the edges between
//! squares (where no piece is ever drawn) and across empty squares, the shortest such way. Either way it is cut short at both ends, so that it stops at the pieces'
//! rings instead of running under them.

/// A point in the picture.
pub type Point = (f64, f64);

/// A piece of a line: straight, or a quadratic Bézier curve (start, control point, end).
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum Segment {
    /// A straight line.
    Line(Point, Point),
    /// A quadratic curve.
    Quad(Point, Point, Point),
}

impl Segment {
    /// The point at parameter `t` in 0..=1.
    pub fn at(&self, t: f64) -> Point {
        match *self {
            Segment::Line(a, b) => (a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t),
            Segment::Quad(a, c, b) => {
                let u = 1.0 - t;
                (
                    u * u * a.0 + 2.0 * u * t * c.0 + t * t * b.0,
                    u * u * a.1 + 2.0 * u * t * c.1 + t * t * b.1,
                )
            }
        }
    }

    /// The part between parameters `t0` and `t1` (the blossom of a quadratic gives its control
    /// point).
    fn part(&self, t0: f64, t1: f64) -> Segment {
        match *self {
            Segment::Line(..) => Segment::Line(self.at(t0), self.at(t1)),
            Segment::Quad(a, c, b) => {
                let (u0, u1) = (1.0 - t0, 1.0 - t1);
                let (w0, w1, w2) = (u0 * u1, u0 * t1 + t0 * u1, t0 * t1);
                let control = (
                    w0 * a.0 + w1 * c.0 + w2 * b.0,
                    w0 * a.1 + w1 * c.1 + w2 * b.1,
                );
                Segment::Quad(self.at(t0), control, self.at(t1))
            }
        }
    }

    fn start(&self) -> Point {
        self.at(0.0)
    }

    fn end(&self) -> Point {
        self.at(1.0)
    }
}

/// A line made of segments, each starting where the one before ends.
#[derive(Clone, Debug, PartialEq)]
pub struct Path(pub Vec<Segment>);

/// Points sampled along a segment when measuring how close it comes to a piece.
const SAMPLES: u32 = 64;

impl Path {
    /// The smallest distance from the line (sampled finely) to `point`.
    pub fn distance_to(&self, point: Point) -> f64 {
        self.0
            .iter()
            .flat_map(|s| (0..=SAMPLES).map(move |i| s.at(f64::from(i) / f64::from(SAMPLES))))
            .map(|(x, y)| (x - point.0).hypot(y - point.1))
            .fold(f64::INFINITY, f64::min)
    }

    /// The share of the line's sampled points that lie inside one of `rects`.
    pub fn hidden_by(&self, rects: &[Rect]) -> f64 {
        let points: Vec<Point> = self
            .0
            .iter()
            .flat_map(|s| (0..=SAMPLES).map(move |i| s.at(f64::from(i) / f64::from(SAMPLES))))
            .collect();
        let inside = points
            .iter()
            .filter(|&&(px, py)| {
                rects
                    .iter()
                    .any(|&(x, y, w, h)| px > x && px < x + w && py > y && py < y + h)
            })
            .count();
        inside as f64 / points.len().max(1) as f64
    }

    /// Whether the line runs through the inside of `rect`.
    pub fn enters(&self, rect: Rect) -> bool {
        let (x, y, w, h) = rect;
        self.0
            .iter()
            .flat_map(|s| (0..=SAMPLES).map(move |i| s.at(f64::from(i) / f64::from(SAMPLES))))
            .any(|(px, py)| px > x && px < x + w && py > y && py < y + h)
    }

    /// The SVG path data (`M x y Q cx cy x y L x y ...`), to a tenth of a pixel.
    pub fn data(&self) -> String {
        let n = |v: f64| crate::svg::Num((v * 10.0).round() / 10.0);
        let mut d = String::new();
        if let Some(first) = self.0.first() {
            let (x, y) = first.start();
            d = format!("M {} {}", n(x), n(y));
        }
        for s in &self.0 {
            match *s {
                Segment::Line(_, b) => d.push_str(&format!(" L {} {}", n(b.0), n(b.1))),
                Segment::Quad(_, c, b) => {
                    d.push_str(&format!(" Q {} {} {} {}", n(c.0), n(c.1), n(b.0), n(b.1)));
                }
            }
        }
        d
    }

    /// The line without its first and last `trim` pixels (measured straight from its end
    /// points; a line whose ends are closer than twice that is kept whole).
    fn trimmed(&self, trim: f64) -> Path {
        let (Some(first), Some(last)) = (self.0.first(), self.0.last()) else {
            return self.clone();
        };
        let (a, b) = (first.start(), last.end());
        if (b.0 - a.0).hypot(b.1 - a.1) <= 2.0 * trim {
            return self.clone();
        }
        let mut segments = self.0.clone();
        cut_front(&mut segments, a, trim);
        segments.reverse();
        for s in &mut segments {
            *s = reversed(s);
        }
        cut_front(&mut segments, b, trim);
        segments.reverse();
        for s in &mut segments {
            *s = reversed(s);
        }
        Path(segments)
    }
}

fn reversed(s: &Segment) -> Segment {
    match *s {
        Segment::Line(a, b) => Segment::Line(b, a),
        Segment::Quad(a, c, b) => Segment::Quad(b, c, a),
    }
}

/// Drops what lies within `trim` of `end` from the front of `segments`: whole segments that end
/// inside, then the first part of the one that leaves (found by bisection on the distance, which
/// grows along the segments [`route`] makes near their ends).
fn cut_front(segments: &mut Vec<Segment>, end: Point, trim: f64) {
    let distance = |p: Point| (p.0 - end.0).hypot(p.1 - end.1);
    while segments.len() > 1 && distance(segments[0].end()) <= trim {
        segments.remove(0);
    }
    let Some(first) = segments.first().copied() else {
        return;
    };
    if distance(first.start()) >= trim {
        return;
    }
    let (mut inside, mut outside) = (0.0, 1.0);
    for _ in 0..40 {
        let mid = (inside + outside) / 2.0;
        if distance(first.at(mid)) < trim {
            inside = mid;
        } else {
            outside = mid;
        }
    }
    segments[0] = first.part(outside, 1.0);
}

/// The board the lines are drawn on: where its squares are and which hold a piece.
#[derive(Clone, Debug)]
pub struct Grid {
    /// Left edge of the first file.
    pub left: f64,
    /// Top edge of the last rank.
    pub top: f64,
    /// Side of a square.
    pub cell: f64,
    /// Files.
    pub files: usize,
    /// Ranks.
    pub ranks: usize,
    /// How far above its square's centre a piece is drawn.
    pub lift: f64,
    /// Per square (`row * files + file`, row 0 at the top), whether a piece stands there.
    pub occupied: Vec<bool>,
    /// Boxes (labels, marks) a line must not run through: each with its square, and whether
    /// the lines of that square's own piece may (a percentage under the ring: the line leaves
    /// the piece behind it, as a tag on a string).
    pub keep_out: Vec<KeepOut>,
}

/// A box a line must not run through.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct KeepOut {
    /// The square it is drawn on.
    pub cell: Cell,
    /// The box.
    pub rect: Rect,
    /// Whether the lines of the piece on `cell` may run through it.
    pub own_lines_pass: bool,
}

/// A box: left, top, width, height.
pub type Rect = (f64, f64, f64, f64);

/// A square of the grid: (file, row from the top).
pub type Cell = (usize, usize);

impl Grid {
    /// The centre of the piece on `cell`.
    pub fn piece_centre(&self, (file, row): Cell) -> Point {
        (
            self.left + self.cell * (file as f64 + 0.5),
            self.top + self.cell * (row as f64 + 0.5) - self.lift,
        )
    }

    fn holds_piece(&self, (file, row): Cell) -> bool {
        self.occupied
            .get(row * self.files + file)
            .copied()
            .unwrap_or(false)
    }

    fn corner(&self, (i, j): (usize, usize)) -> Point {
        (
            self.left + self.cell * i as f64,
            self.top + self.cell * j as f64,
        )
    }
}

/// The line from the piece on `from` to the piece on `to` that keeps `clearance` from every
/// other piece and runs through no label (see the module docs), cut short by `trim` at each end.
pub fn route(grid: &Grid, from: Cell, to: Cell, clearance: f64, trim: f64) -> Path {
    let others: Vec<Point> = (0..grid.ranks)
        .flat_map(|row| (0..grid.files).map(move |file| (file, row)))
        .filter(|c| *c != from && *c != to && grid.holds_piece(*c))
        .map(|c| grid.piece_centre(c))
        .collect();
    let (a, b) = (grid.piece_centre(from), grid.piece_centre(to));
    let passable = |k: &&KeepOut| k.own_lines_pass && (k.cell == from || k.cell == to);
    let keep_out: Vec<Rect> = grid
        .keep_out
        .iter()
        .filter(|k| !passable(k))
        .map(|k| k.rect)
        .collect();
    let own_tags: Vec<Rect> = grid
        .keep_out
        .iter()
        .filter(passable)
        .map(|k| k.rect)
        .collect();
    // Its own pieces' percentages may sit on a line, as long as most of it stays in sight (two
    // neighbours' line is hardly longer than the tag).
    let fits = |p: &Path| {
        others.iter().all(|&o| p.distance_to(o) >= clearance)
            && !keep_out.iter().any(|&r| p.enters(r))
            && p.hidden_by(&own_tags) <= MOST_HIDDEN
    };
    curves(a, b, grid.cell)
        .map(|p| p.trimmed(trim))
        .find(|p| fits(p))
        .or_else(|| along_edges(grid, &keep_out, from, to).map(|p| p.trimmed(trim)))
        .unwrap_or_else(|| Path(vec![Segment::Line(a, b)]).trimmed(trim))
}

/// The largest share of a curve that its own pieces' percentages may hide.
const MOST_HIDDEN: f64 = 0.3;

/// Quadratic curves from `a` to `b`, least bent first: straight, then bends of half a square
/// (`cell`) more each time, to either side, up to four squares.
fn curves(a: Point, b: Point, cell: f64) -> impl Iterator<Item = Path> {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let length = dx.hypot(dy).max(1e-9);
    // The unit normal of the segment: bends go along it, either way.
    let (nx, ny) = (-dy / length, dx / length);
    // A curve's middle lies half way to its control point: a bend of k/2 cells moves the middle
    // k/4 of a cell aside.
    let bends = std::iter::once(0.0).chain((1..=8).flat_map(move |k| {
        let bend = f64::from(k) * cell / 2.0;
        [bend, -bend]
    }));
    bends.map(move |bend| {
        let control = ((a.0 + b.0) / 2.0 + nx * bend, (a.1 + b.1) / 2.0 + ny * bend);
        Path(vec![Segment::Quad(a, control, b)])
    })
}

/// The shortest way from the piece on `from` to the piece on `to` that runs along the edges
/// between squares (no piece is drawn there) and diagonally across empty squares, leaving and
/// entering the two squares through one of their corners (one with no label or mark in the
/// way). Dijkstra on the
/// (files + 1) x (ranks + 1) corners: a bounded search.
fn along_edges(grid: &Grid, keep_out: &[Rect], from: Cell, to: Cell) -> Option<Path> {
    let (w, h) = (grid.files + 1, grid.ranks + 1);
    let index = |(i, j): (usize, usize)| j * w + i;
    let corners_of = |(f, r): Cell| [(f, r), (f + 1, r), (f, r + 1), (f + 1, r + 1)];
    let (start, goal) = (grid.piece_centre(from), grid.piece_centre(to));
    let gap = |p: Point, q: Point| (p.0 - q.0).hypot(p.1 - q.1);
    let mut dist = vec![f64::INFINITY; w * h];
    let mut previous: Vec<Option<usize>> = vec![None; w * h];
    let mut done = vec![false; w * h];
    // A line leaves (and enters) a square through a corner it can reach without running
    // through a label or a mark.
    let clear_way = |centre: Point, c: (usize, usize)| {
        let way = Path(vec![Segment::Line(centre, grid.corner(c))]);
        !keep_out.iter().any(|&r| way.enters(r))
    };
    for c in corners_of(from) {
        if clear_way(start, c) {
            dist[index(c)] = gap(start, grid.corner(c));
        }
    }
    // The closest corner not yet settled, each once (the graph has at most 81 nodes: a linear
    // scan).
    let closest = |done: &[bool], dist: &[f64]| {
        (0..w * h)
            .filter(|&k| !done[k] && dist[k].is_finite())
            .min_by(|&x, &y| dist[x].total_cmp(&dist[y]))
    };
    while let Some(k) = closest(&done, &dist) {
        done[k] = true;
        let (i, j) = (k % w, k / w);
        let mut neighbours: Vec<((usize, usize), f64)> = Vec::new();
        for (di, dj) in [(-1i64, 0i64), (1, 0), (0, -1), (0, 1)] {
            let (ni, nj) = (i as i64 + di, j as i64 + dj);
            if ni >= 0 && nj >= 0 && (ni as usize) < w && (nj as usize) < h {
                neighbours.push(((ni as usize, nj as usize), grid.cell));
            }
        }
        // Diagonals across the (up to four) squares this corner touches, when empty or one of
        // the two ends.
        for (di, dj) in [(-1i64, -1i64), (1, -1), (-1, 1), (1, 1)] {
            let (ni, nj) = (i as i64 + di, j as i64 + dj);
            if ni < 0 || nj < 0 || ni as usize >= w || nj as usize >= h {
                continue;
            }
            let square = ((i as i64).min(ni) as usize, (j as i64).min(nj) as usize);
            if !grid.holds_piece(square) || square == from || square == to {
                neighbours.push(((ni as usize, nj as usize), grid.cell * 2f64.sqrt()));
            }
        }
        for (n, cost) in neighbours {
            let m = index(n);
            if dist[k] + cost < dist[m] {
                dist[m] = dist[k] + cost;
                previous[m] = Some(k);
            }
        }
    }
    let end = corners_of(to)
        .into_iter()
        .filter(|&c| clear_way(goal, c))
        .map(|c| (index(c), dist[index(c)] + gap(grid.corner(c), goal)))
        .filter(|(_, d)| d.is_finite())
        .min_by(|x, y| x.1.total_cmp(&y.1))?
        .0;
    let mut points = vec![goal];
    let mut k = Some(end);
    while let Some(node) = k {
        points.push(grid.corner((node % w, node / w)));
        k = previous[node];
    }
    points.push(start);
    points.reverse();
    Some(polyline(&points))
}

/// The polyline through `points`. (Its corners are not rounded: a rounded corner would cut
/// into the square inside the turn, where a label may sit in the corner.)
fn polyline(points: &[Point]) -> Path {
    Path(
        points
            .windows(2)
            .map(|w| Segment::Line(w[0], w[1]))
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grid(occupied: &[Cell]) -> Grid {
        let mut g = Grid {
            left: 0.0,
            top: 0.0,
            cell: 60.0,
            files: 8,
            ranks: 8,
            lift: 5.0,
            occupied: vec![false; 64],
            keep_out: Vec::new(),
        };
        for &(f, r) in occupied {
            g.occupied[r * 8 + f] = true;
        }
        g
    }

    #[test]
    fn a_part_of_a_curve_lies_on_the_curve() {
        let c = Segment::Quad((0.0, 0.0), (50.0, 80.0), (100.0, 0.0));
        let p = c.part(0.2, 0.7);
        for i in 0..=10 {
            let s = f64::from(i) / 10.0;
            let (x, y) = p.at(s);
            let (ex, ey) = c.at(0.2 + 0.5 * s);
            assert!((x - ex).abs() < 1e-9 && (y - ey).abs() < 1e-9, "{s}");
        }
    }

    #[test]
    fn a_line_stops_at_the_given_distance_from_its_pieces_and_clears_the_others() {
        // Straight when nothing is in the way, bent around a piece between.
        for between in [vec![], vec![(2, 0)]] {
            let mut all = between.clone();
            all.extend([(0, 0), (4, 0)]);
            let g = grid(&all);
            let p = route(&g, (0, 0), (4, 0), 25.0, 22.0);
            let (a, b) = (g.piece_centre((0, 0)), g.piece_centre((4, 0)));
            let gap = |p: Point, q: Point| (p.0 - q.0).hypot(p.1 - q.1);
            let first = p.0.first().expect("a segment").start();
            let last = p.0.last().expect("a segment").end();
            assert!((gap(first, a) - 22.0).abs() < 1e-6, "{p:?}");
            assert!((gap(last, b) - 22.0).abs() < 1e-6, "{p:?}");
            for o in between {
                assert!(p.distance_to(g.piece_centre(o)) >= 25.0 - 0.5, "{p:?}");
            }
        }
    }

    #[test]
    fn on_a_full_board_a_line_runs_between_the_squares() {
        let everything: Vec<Cell> = (0..8).flat_map(|r| (0..8).map(move |f| (f, r))).collect();
        let g = grid(&everything);
        let p = route(&g, (3, 7), (7, 3), 25.0, 22.0);
        assert!(p.0.len() > 2, "{p:?}");
        for &c in &everything {
            if c != (3, 7) && c != (7, 3) {
                let gap = p.distance_to(g.piece_centre(c));
                assert!(gap >= 22.0, "{c:?}: {gap} in {}", p.data());
            }
        }
    }
}
