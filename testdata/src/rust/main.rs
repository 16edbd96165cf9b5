// Fixture for the symbolizer: monomorphised generics, closures, trait
// objects, trait impls, const generics, nested modules, a non-ASCII
// identifier (punycode in v0 names) and inlining at -O. Built twice, with
// legacy and v0 symbol mangling (testdata/Makefile).

use std::collections::HashMap;
use std::fmt;
use std::hint::black_box;

pub mod geometry {
    pub mod shapes {
        #[derive(Debug, Clone, Copy)]
        pub struct Point<T> {
            pub x: T,
            pub y: T,
        }

        impl<T: Copy + std::ops::Add<Output = T> + std::ops::Mul<Output = T>> Point<T> {
            #[inline(never)]
            pub fn dot(&self, other: &Point<T>) -> T {
                self.x * other.x + self.y * other.y
            }

            #[inline(always)]
            pub fn scaled(self, k: T) -> Point<T> {
                Point { x: self.x * k, y: self.y * k }
            }
        }
    }

    pub trait Area {
        fn area(&self) -> f64;
        fn describe(&self) -> String {
            format!("area {:.2}", self.area())
        }
    }

    pub struct Circle(pub f64);
    pub struct Rect {
        pub w: f64,
        pub h: f64,
    }

    impl Area for Circle {
        #[inline(never)]
        fn area(&self) -> f64 {
            std::f64::consts::PI * self.0 * self.0
        }
    }

    impl Area for Rect {
        #[inline(never)]
        fn area(&self) -> f64 {
            self.w * self.h
        }
        fn describe(&self) -> String {
            format!("rect {}x{}", self.w, self.h)
        }
    }
}

use geometry::shapes::Point;
use geometry::{Area, Circle, Rect};

pub struct Matrix<const N: usize> {
    cells: [[i64; N]; N],
}

impl<const N: usize> Matrix<N> {
    #[inline(never)]
    fn trace(&self) -> i64 {
        (0..N).map(|i| self.cells[i][i]).sum()
    }
}

impl<const N: usize> fmt::Display for Matrix<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Matrix<{}> trace {}", N, self.trace())
    }
}

#[inline(never)]
fn größe(v: &[u32]) -> usize {
    v.iter().filter(|&&x| x % 3 == 0).count()
}

#[inline(never)]
fn apply<F: Fn(u64) -> u64>(f: F, n: u64) -> u64 {
    (0..n).fold(0, |acc, i| acc.wrapping_add(f(i)))
}

#[inline(never)]
fn total_area(shapes: &[Box<dyn Area>]) -> f64 {
    shapes.iter().map(|s| s.area()).sum()
}

#[inline(never)]
fn word_counts(text: &str) -> HashMap<&str, usize> {
    let mut m = HashMap::new();
    for w in text.split_whitespace() {
        *m.entry(w).or_insert(0) += 1;
    }
    m
}

#[inline(never)]
fn checked_div(a: i32, b: i32) -> Option<i32> {
    if b == 0 {
        None
    } else {
        Some(a / b)
    }
}

fn main() {
    let p = Point { x: 3i32, y: 4 };
    let q = Point { x: 1.5f64, y: 2.5 };
    println!("{}", p.dot(&black_box(p).scaled(2)));
    println!("{}", q.dot(&black_box(q).scaled(0.5)));

    let shapes: Vec<Box<dyn Area>> = vec![Box::new(Circle(1.0)), Box::new(Rect { w: 2.0, h: 3.0 })];
    println!("{:.3}", total_area(&shapes));
    for s in &shapes {
        println!("{}", s.describe());
    }

    let m = Matrix::<3> { cells: [[1, 2, 3], [4, 5, 6], [7, 8, 9]] };
    println!("{}", m);

    let k = black_box(7u64);
    println!("{}", apply(|x| x * k + 1, black_box(10)));
    println!("{}", apply(|x| x ^ k, black_box(5)));

    println!("{}", größe(&black_box(vec![3, 4, 6, 9, 10])));
    let counts = word_counts(black_box("a b a c b a"));
    let mut keys: Vec<_> = counts.into_iter().collect();
    keys.sort();
    println!("{:?}", keys);
    println!("{:?}", checked_div(black_box(7), black_box(0)));
}
