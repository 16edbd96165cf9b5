// rustpanic: an index out of bounds in a nested call, printed with
// RUST_BACKTRACE=1.
fn pick(v: &[u32], i: usize) -> u32 {
    v[i]
}

fn total(v: &[u32]) -> u32 {
    (0..=v.len()).map(|i| pick(v, i)).sum()
}

fn main() {
    let v = vec![1, 2, 3];
    println!("{}", total(&v));
}
