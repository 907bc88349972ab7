package scoreboard_test

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/spraynic/spraynic/scoreboard"
)

// TestTransfer: exactly once, in order, byte-exact, nothing left behind; aborted connections are counted apart.
func TestTransfer(t *testing.T) {
	a := []byte("first message")
	b := []byte("second")
	c := []byte("third")
	tests := []struct {
		name string
		run  func(s *scoreboard.Transfer) error
		want string
	}{
		{name: "in order", run: func(s *scoreboard.Transfer) error {
			if err := s.Deliver(0, 1, a); err != nil {
				return err
			}
			if err := s.Deliver(0, 2, b); err != nil {
				return err
			}
			if err := s.Deliver(1, 7, c); err != nil {
				return err
			}
			return s.Finish()
		}, want: ""},
		{name: "reordered", run: func(s *scoreboard.Transfer) error { return s.Deliver(0, 2, b) },
			want: "transfer: connection 0: message 2 delivered, expected message 1 next (order or duplicate)"},
		{name: "duplicate", run: func(s *scoreboard.Transfer) error {
			_ = s.Deliver(1, 7, c)
			return s.Deliver(1, 7, c)
		}, want: "transfer: connection 1: message 7 delivered, but nothing is outstanding " +
			"(a duplicate or an invented message)"},
		{name: "corrupted", run: func(s *scoreboard.Transfer) error {
			x := append([]byte(nil), a...)
			x[3] ^= 1
			return s.Deliver(0, 1, x)
		}, want: "transfer: connection 0: message 1 (13 bytes) delivered with other bytes than posted"},
		{name: "truncated", run: func(s *scoreboard.Transfer) error { return s.Deliver(0, 1, a[:5]) },
			want: "transfer: connection 0: message 1 delivered with 5 bytes, posted 13"},
		{name: "lost", run: func(s *scoreboard.Transfer) error {
			_ = s.Deliver(0, 1, a)
			return s.Finish()
		}, want: "transfer: connection 0: 1 message(s) never delivered, the first is message 2 (6 bytes)"},
		{name: "aborted", run: func(s *scoreboard.Transfer) error {
			s.Abort(0)
			_ = s.Deliver(1, 7, c)
			if s.Aborted != 2 || s.Outstanding() != 0 {
				return errors.New("abort must count connection 0's two messages and leave nothing outstanding")
			}
			return s.Finish()
		}, want: ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := scoreboard.NewTransfer(2)
			require.NoError(t, s.Post(0, 1, a))
			require.NoError(t, s.Post(0, 2, b))
			require.NoError(t, s.Post(1, 7, c))
			err := tc.run(s)
			if tc.want == "" {
				require.NoError(t, err)
			} else {
				require.EqualError(t, err, tc.want)
			}
		})
	}
	s := scoreboard.NewTransfer(1)
	require.NoError(t, s.Post(0, 5, a))
	require.EqualError(t, s.Post(0, 5, b), "transfer: connection 0: message 5 posted after message 5")
	require.EqualError(t, s.Post(3, 6, b), "transfer: post on connection 3 of 1")
}
