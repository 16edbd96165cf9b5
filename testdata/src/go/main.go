// Command fixture is a symbolizer fixture: methods on value and pointer
// receivers, closures, generics, an interface call, a goroutine, a
// recovered panic and functions the compiler inlines (Go DWARF records
// them as DW_TAG_inlined_subroutine).
package main

import (
	"errors"
	"os"
	"strconv"
	"sync"
)

// Shape is implemented by value and pointer receivers.
type Shape interface {
	Area() float64
}

type Rect struct{ W, H float64 }

type Circle struct{ R float64 }

// Area has a value receiver.
//
//go:noinline
func (r Rect) Area() float64 { return r.W * r.H }

// Area has a pointer receiver.
//
//go:noinline
func (c *Circle) Area() float64 { return 3.14159 * c.R * c.R }

// Stack is generic: the compiler emits a shape-instantiated copy.
type Stack[T any] struct{ items []T }

//go:noinline
func (s *Stack[T]) Push(v T) { s.items = append(s.items, v) }

//go:noinline
func (s *Stack[T]) Pop() (T, bool) {
	var zero T
	if len(s.items) == 0 {
		return zero, false
	}
	v := s.items[len(s.items)-1]
	s.items = s.items[:len(s.items)-1]
	return v, true
}

// Map applies f to every element.
//
//go:noinline
func Map[T, U any](in []T, f func(T) U) []U {
	out := make([]U, 0, len(in))
	for _, v := range in {
		out = append(out, f(v))
	}
	return out
}

// square is small enough to be inlined into its callers.
func square(x int) int { return x * x }

func sumSquares(xs []int) int {
	t := 0
	for _, x := range xs {
		t += square(x)
	}
	return t
}

//go:noinline
func totalArea(shapes []Shape) float64 {
	t := 0.0
	for _, s := range shapes {
		t += s.Area()
	}
	return t
}

var errEmpty = errors.New("empty input")

//go:noinline
func parseAll(words []string) ([]int, error) {
	if len(words) == 0 {
		return nil, errEmpty
	}
	out := make([]int, 0, len(words))
	for _, w := range words {
		n, err := strconv.Atoi(w)
		if err != nil {
			return nil, err
		}
		out = append(out, n)
	}
	return out, nil
}

//go:noinline
func safeIndex(xs []int, i int) (v int, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = errors.New("index out of range")
		}
	}()
	return xs[i], nil
}

//go:noinline
func parallelSum(xs []int) int {
	var wg sync.WaitGroup
	var mu sync.Mutex
	total := 0
	for i := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := 0
			for j := i; j < len(xs); j += 4 {
				s += xs[j]
			}
			mu.Lock()
			total += s
			mu.Unlock()
		}()
	}
	wg.Wait()
	return total
}

func say(parts ...string) {
	for _, p := range parts {
		os.Stdout.WriteString(p)
	}
	os.Stdout.WriteString("\n")
}

func main() {
	xs, err := parseAll([]string{"1", "2", "3", "4", "5", "6", "7"})
	if err != nil {
		say("error: ", err.Error())
		os.Exit(1)
	}
	say("squares ", strconv.Itoa(sumSquares(xs)))
	say("parallel ", strconv.Itoa(parallelSum(xs)))

	var st Stack[string]
	for _, s := range Map(xs, strconv.Itoa) {
		st.Push(s)
	}
	if top, ok := st.Pop(); ok {
		say("top ", top)
	}
	k := len(xs)
	scaled := Map(xs, func(x int) float64 { return float64(x * k) })
	say("scaled ", strconv.FormatFloat(scaled[2], 'f', 1, 64))

	shapes := []Shape{Rect{2, 3}, &Circle{1}}
	say("area ", strconv.FormatFloat(totalArea(shapes), 'f', 3, 64))

	if _, err := safeIndex(xs, 10); err != nil {
		say("recovered: ", err.Error())
	}
}
