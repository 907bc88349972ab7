package eventq

// Queue is a binary min-heap of items by (due cycle, insertion order).
type Queue[T any] struct {
	// items is the heap; order numbers insertions for stable ties.
	items []entry[T]
	order int64
}

// entry is one queued item.
type entry[T any] struct {
	// due and order sort it; v is the item.
	due, order int64
	v          T
}

// Len is the number of queued items.
func (q *Queue[T]) Len() int { return len(q.items) }

// Due reports whether the earliest item is due at cycle.
func (q *Queue[T]) Due(cycle int64) bool { return len(q.items) > 0 && q.items[0].due <= cycle }

// Peek returns the earliest item; the queue must not be empty.
func (q *Queue[T]) Peek() *T { return &q.items[0].v }

// Push queues v due at cycle due.
func (q *Queue[T]) Push(due int64, v T) {
	q.order++
	q.items = append(q.items, entry[T]{due: due, order: q.order, v: v})
	for i := len(q.items) - 1; i > 0; {
		up := (i - 1) / 2
		if !q.less(i, up) {
			break
		}
		q.items[i], q.items[up] = q.items[up], q.items[i]
		i = up
	}
}

// Pop removes and returns the earliest item; the queue must not be empty.
func (q *Queue[T]) Pop() T {
	v := q.items[0].v
	n := len(q.items) - 1
	q.items[0] = q.items[n]
	q.items = q.items[:n]
	q.down(0)
	return v
}

// Filter keeps the items for which keep is true.
func (q *Queue[T]) Filter(keep func(*T) bool) {
	kept := q.items[:0]
	for _, e := range q.items {
		if keep(&e.v) {
			kept = append(kept, e)
		}
	}
	q.items = kept
	for i := len(q.items)/2 - 1; i >= 0; i-- {
		q.down(i)
	}
}

// Clear empties the queue.
func (q *Queue[T]) Clear() { q.items = q.items[:0] }

func (q *Queue[T]) less(i, j int) bool {
	a, b := &q.items[i], &q.items[j]
	return a.due < b.due || (a.due == b.due && a.order < b.order)
}

func (q *Queue[T]) down(i int) {
	n := len(q.items)
	for {
		l, m := 2*i+1, i
		if l < n && q.less(l, m) {
			m = l
		}
		if r := l + 1; r < n && q.less(r, m) {
			m = r
		}
		if m == i {
			return
		}
		q.items[i], q.items[m] = q.items[m], q.items[i]
		i = m
	}
}
