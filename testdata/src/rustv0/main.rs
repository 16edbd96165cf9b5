// rustv0: a Rust program built with v0 symbol mangling whose symbols cover
// every v0 path shape (nested paths, inherent and trait impls, generic
// arguments, const generics of every kind, back references, closures,
// shims, dyn traits with associated types, fn pointers with ABIs, arrays,
// tuples, references, raw pointers, punycode identifiers) and which links
// std's backtrace machinery (its gimli and addr2line code, whose generic
// methods on enum variants are issue 24's names).
//
// Run without arguments it prints a captured backtrace; "panic" panics in a
// nested call and "unwrap" in Result::unwrap (for RUST_BACKTRACE=1 and
// RUST_BACKTRACE=full reports).
// testdata/Makefile (target rustv0) builds it.

use std::backtrace::Backtrace;
use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::hint::black_box;
use std::rc::Rc;

pub mod outer {
    pub mod inner {
        pub struct Wrapper<T>(pub T);

        impl<T: Clone> Wrapper<T> {
            #[inline(never)]
            pub fn get(&self) -> T {
                self.0.clone()
            }
        }

        pub enum Either<L, R> {
            A(L),
            B(R),
        }

        impl<L: Copy + Into<u64>, R: Copy + Into<u64>> Either<L, R> {
            #[inline(never)]
            pub fn value<F: Fn(u64) -> u64>(&self, f: F) -> u64 {
                match self {
                    Either::A(l) => f((*l).into()),
                    Either::B(r) => f((*r).into()) + 1,
                }
            }
        }
    }
}

use outer::inner::{Either, Wrapper};

pub trait Shape {
    type Unit;
    fn area(&self) -> f64;
    fn unit(&self) -> Self::Unit;
    fn describe(&self) -> String {
        format!("area {:.2}", self.area())
    }
}

pub struct Circle(pub f64);
pub struct Square<const N: usize>;

impl Shape for Circle {
    type Unit = u8;
    #[inline(never)]
    fn area(&self) -> f64 {
        std::f64::consts::PI * self.0 * self.0
    }
    fn unit(&self) -> u8 {
        1
    }
}

impl<const N: usize> Shape for Square<N> {
    type Unit = [u8; N];
    #[inline(never)]
    fn area(&self) -> f64 {
        (N * N) as f64
    }
    fn unit(&self) -> [u8; N] {
        [0; N]
    }
}

// Const generics of every kind the v0 grammar has.
#[inline(never)]
fn consts<const B: bool, const C: char, const I: i32, const U: u64, const J: i128>() -> i128 {
    black_box(B as i128 + C as i128 + I as i128 + U as i128 + J)
}

// Functions taking fn pointers (with ABIs), dyn traits, tuples, arrays,
// slices, raw pointers, references, str and never.
#[inline(never)]
fn call_ptr(f: fn(u32) -> u32, g: unsafe extern "C" fn(i32) -> i32, x: u32) -> u32 {
    f(x) + unsafe { g(x as i32) } as u32
}

extern "C" fn c_abi(x: i32) -> i32 {
    black_box(x * 3)
}

fn plus_one(x: u32) -> u32 {
    black_box(x + 1)
}

#[inline(never)]
fn dyn_shapes(v: &[Box<dyn Shape<Unit = u8> + Send + Sync>]) -> f64 {
    v.iter().map(|s| s.area() + s.unit() as f64).sum()
}

#[inline(never)]
fn dyn_iter(it: &mut dyn Iterator<Item = (u8, &str)>) -> usize {
    it.map(|(a, s)| a as usize + s.len()).sum()
}

#[inline(never)]
fn shapes_of_types<T: fmt::Debug>(
    t: (T, [u16; 4], *const u8, *mut i64),
    s: &[Option<&mut String>],
    r: &&'static str,
) -> String {
    format!("{:?} {} {} {}", t.0, t.1[2], s.len(), r.len())
}

#[inline(never)]
fn never_returns(msg: &str) -> ! {
    panic!("{}", msg)
}

// A non-ASCII identifier: punycode in v0 names.
#[inline(never)]
fn größe(v: &[u32]) -> usize {
    v.len() * 2
}

mod ünïcödé {
    #[inline(never)]
    pub fn tschüß<T: Default>() -> T {
        T::default()
    }
}

// Trait impls on std types and generic types (impl paths with back references).
pub trait Describe {
    fn describe(&self) -> String;
}

impl<K: fmt::Debug, V: fmt::Debug> Describe for BTreeMap<K, V> {
    #[inline(never)]
    fn describe(&self) -> String {
        format!("{} entries, first {:?}", self.len(), self.iter().next())
    }
}

impl<T: Describe + ?Sized> Describe for Box<T> {
    #[inline(never)]
    fn describe(&self) -> String {
        (**self).describe()
    }
}

impl Describe for [u8] {
    #[inline(never)]
    fn describe(&self) -> String {
        format!("{} bytes", self.len())
    }
}

impl<'a, T: Describe + ?Sized> Describe for &'a T {
    #[inline(never)]
    fn describe(&self) -> String {
        (**self).describe()
    }
}

// Higher-ranked lifetimes in fn pointers and dyn traits.
#[inline(never)]
fn hrtb(f: for<'a> fn(&'a str) -> &'a str, g: &dyn for<'b> Fn(&'b [u8]) -> &'b [u8]) -> usize {
    f("abc").len() + g(b"xy").len()
}

fn ident(s: &str) -> &str {
    s
}

struct Node {
    children: Vec<Rc<RefCell<Node>>>,
    depth: u32,
}

impl Node {
    #[inline(never)]
    fn walk<F: FnMut(u32)>(&self, f: &mut F) {
        f(self.depth);
        for c in &self.children {
            c.borrow().walk(f);
        }
    }
}

impl Drop for Node {
    fn drop(&mut self) {
        black_box(self.depth);
    }
}

#[inline(never)]
fn level3(v: &[u32], i: usize) -> u32 {
    if i >= v.len() {
        never_returns("index past the end in level3");
    }
    v[i]
}

#[inline(never)]
fn level2(v: &[u32]) -> u32 {
    (0..=v.len()).map(|i| level3(v, i)).sum()
}

#[inline(never)]
fn level1() -> u32 {
    let v = vec![1, 2, 3];
    level2(&v)
}

#[inline(never)]
fn parse_count(s: &str) -> u32 {
    s.trim().parse::<u32>().unwrap()
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    match args.get(1).map(String::as_str) {
        Some("panic") => {
            println!("{}", level1());
            return;
        }
        Some("unwrap") => {
            println!("{}", parse_count("x"));
            return;
        }
        _ => {}
    }

    let w = Wrapper(vec![1u8, 2, 3]);
    let e: Either<u8, u32> = if args.len() > 5 { Either::A(3) } else { Either::B(7) };
    let total = e.value(|x| x * 2) + w.get().len() as u64;

    let shapes: Vec<Box<dyn Shape<Unit = u8> + Send + Sync>> = vec![Box::new(Circle(1.5))];
    let sq = Square::<3>;
    let mut pairs = vec![(1u8, "a"), (2, "bc")].into_iter();
    let mut s = String::from("x");
    let opts = [Some(&mut s), None];
    let mut m = BTreeMap::new();
    m.insert("k", 1u32);
    let boxed: Box<BTreeMap<&str, u32>> = Box::new(m.clone());
    let bytes: &[u8] = b"hello";

    let mut hm: HashMap<String, Vec<u32>> = HashMap::new();
    hm.entry("a".into()).or_default().push(1);

    let tree = Node {
        children: vec![Rc::new(RefCell::new(Node { children: vec![], depth: 1 }))],
        depth: 0,
    };
    let mut depths = 0;
    tree.walk(&mut |d| depths += d);

    let desc = shapes_of_types(
        (total, [1, 2, 3, 4], bytes.as_ptr(), std::ptr::null_mut()),
        &opts,
        &"static",
    );
    println!(
        "{} {} {} {} {} {} {} {} {} {} {} {} {} {}",
        desc,
        dyn_shapes(&shapes),
        sq.area() + sq.unit().len() as f64,
        sq.describe(),
        dyn_iter(&mut pairs),
        consts::<true, 'ß', -7, 18446744073709551615, -170141183460469231731687303715884105728>(),
        call_ptr(plus_one, c_abi, 4),
        größe(&[1, 2]),
        ünïcödé::tschüß::<u64>(),
        m.describe(),
        boxed.describe(),
        bytes.describe(),
        hrtb(ident, &|b: &[u8]| b),
        depths + hm.len() as u32,
    );

    // std's backtrace machinery: capture and print (symbolized by std's
    // own gimli and addr2line code, linked in by this call).
    let bt = Backtrace::force_capture();
    println!("{bt}");
}
