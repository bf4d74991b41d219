package demo

import "hash/fnv"

// hashString is the FNV-64a hash of s; every canned choice is seeded by it.
func hashString(s string) uint64 {
	h := fnv.New64a()
	_, _ = h.Write([]byte(s))
	return h.Sum64()
}

// rng is a splitmix64 generator: tiny, fast and stable across Go releases,
// so canned replies and images never change under a new toolchain.
type rng struct{ state uint64 }

func newRNG(seed uint64) *rng { return &rng{state: seed} }

func (r *rng) next() uint64 {
	r.state += 0x9e3779b97f4a7c15
	z := r.state
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// intn returns a number in [0, n); n must be positive.
func (r *rng) intn(n int) int { return int(r.next() % uint64(n)) }

// between returns a number in [lo, hi]; hi must not be below lo.
func (r *rng) between(lo, hi int) int { return lo + r.intn(hi-lo+1) }

func (r *rng) pick(list []string) string { return list[r.intn(len(list))] }

// pickN returns n distinct items of list (n <= len(list)) in random order.
func (r *rng) pickN(list []string, n int) []string {
	idx := make([]int, len(list))
	for i := range idx {
		idx[i] = i
	}
	out := make([]string, 0, n)
	for i := 0; i < n; i++ {
		j := i + r.intn(len(idx)-i)
		idx[i], idx[j] = idx[j], idx[i]
		out = append(out, list[idx[i]])
	}
	return out
}
