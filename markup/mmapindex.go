package markup

// mmapIndex keeps a context's segments ordered by start address: a skip
// list, so that a log declaring segments in any order (hundreds of
// thousands of them in a hostile one) costs O(log n) per mmap and per
// lookup. Keys are unique: inserting at an address already present
// returns the segment there.
type mmapIndex struct {
	head  [mmapMaxLevel]*mmapNode
	level int
	n     int
	rand  uint64 // xorshift state for node levels; 0 until the first insert
}

const mmapMaxLevel = 24

type mmapNode struct {
	m    *MMap
	next []*mmapNode
}

// around returns the last segment starting at or below a and the first
// starting above it (nil when there is none).
func (x *mmapIndex) around(a uint64) (below, above *MMap) {
	var prev *mmapNode
	for l := x.level - 1; l >= 0; l-- {
		for {
			nx := x.next(prev, l)
			if nx == nil || nx.m.Addr > a {
				break
			}
			prev = nx
		}
	}
	if prev != nil {
		below = prev.m
	}
	if nx := x.next(prev, 0); nx != nil {
		above = nx.m
	}
	return below, above
}

func (x *mmapIndex) next(n *mmapNode, level int) *mmapNode {
	if n == nil {
		return x.head[level]
	}
	return n.next[level]
}

func (x *mmapIndex) setNext(n *mmapNode, level int, to *mmapNode) {
	if n == nil {
		x.head[level] = to
		return
	}
	n.next[level] = to
}

// insert adds m, or returns the segment already starting at m.Addr.
func (x *mmapIndex) insert(m *MMap) *MMap {
	var update [mmapMaxLevel]*mmapNode
	var prev *mmapNode
	for l := x.level - 1; l >= 0; l-- {
		for {
			nx := x.next(prev, l)
			if nx == nil || nx.m.Addr >= m.Addr {
				break
			}
			prev = nx
		}
		update[l] = prev
	}
	if nx := x.next(prev, 0); nx != nil && nx.m.Addr == m.Addr {
		return nx.m
	}
	level := x.randomLevel()
	for x.level < level {
		update[x.level] = nil
		x.level++
	}
	n := &mmapNode{m: m, next: make([]*mmapNode, level)}
	for l := 0; l < level; l++ {
		n.next[l] = x.next(update[l], l)
		x.setNext(update[l], l, n)
	}
	x.n++
	return m
}

// randomLevel draws a node's level: 1, and one more with probability 1/4
// each time.
func (x *mmapIndex) randomLevel() int {
	if x.rand == 0 {
		x.rand = 0x9e3779b97f4a7c15
	}
	level := 1
	for level < mmapMaxLevel {
		x.rand ^= x.rand << 13
		x.rand ^= x.rand >> 7
		x.rand ^= x.rand << 17
		if x.rand&3 != 0 {
			break
		}
		level++
	}
	return level
}

// all returns the segments in address order.
func (x *mmapIndex) all() []*MMap {
	var ms []*MMap
	for n := x.head[0]; n != nil; n = n.next[0] {
		ms = append(ms, n.m)
	}
	return ms
}
