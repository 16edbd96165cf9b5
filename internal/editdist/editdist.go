// Package editdist measures how far apart two short words are, for
// suggestions ("did you mean") and for reading words a damaged log
// misspells.
package editdist

// Levenshtein is the number of insertions, deletions and replacements of
// bytes that turn a into b. With limit >= 0 it stops as soon as the
// distance is known to exceed limit and returns limit+1 (a bound: every
// row's minimum only grows); a negative limit means none.
func Levenshtein[S ~string | ~[]byte](a S, b string, limit int) int {
	var rows [2][40]int // no allocation for short words
	prev, cur := rows[0][:], rows[1][:]
	if len(b)+1 > len(prev) {
		prev, cur = make([]int, len(b)+1), make([]int, len(b)+1)
	}
	prev, cur = prev[:len(b)+1], cur[:len(b)+1]
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		low := cur[0]
		for j := 1; j <= len(b); j++ {
			c := prev[j-1]
			if a[i-1] != b[j-1] {
				c++
			}
			c = min(c, prev[j]+1, cur[j-1]+1)
			cur[j] = c
			low = min(low, c)
		}
		if limit >= 0 && low > limit {
			return limit + 1
		}
		prev, cur = cur, prev
	}
	if limit >= 0 {
		return min(prev[len(b)], limit+1)
	}
	return prev[len(b)]
}
