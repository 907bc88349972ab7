package eventq_test

import (
	"testing"

	"github.com/spraynic/spraynic/stimulus/eventq"
	"github.com/stretchr/testify/require"
)

func TestOrder(t *testing.T) {
	var q eventq.Queue[string]
	q.Push(5, "c")
	q.Push(1, "a")
	q.Push(5, "d")
	q.Push(3, "b")
	require.False(t, q.Due(0))
	require.True(t, q.Due(1))
	var got []string
	for q.Len() > 0 {
		got = append(got, q.Pop())
	}
	require.Equal(t, []string{"a", "b", "c", "d"}, got, "by due cycle, ties in insertion order")
}

func TestFilter(t *testing.T) {
	var q eventq.Queue[int]
	for i := 0; i < 20; i++ {
		q.Push(int64(20-i), i)
	}
	q.Filter(func(v *int) bool { return *v%2 == 0 })
	prev := 1 << 30
	for q.Len() > 0 {
		v := q.Pop()
		require.Zero(t, v%2, "odd items were filtered out")
		require.Less(t, v, prev, "still ordered by due after filtering")
		prev = v
	}
}
