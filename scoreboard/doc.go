// Package scoreboard holds transaction-level checkers that judge the RTL by the protocol rules alone. They share
// no code with the golden models (their own sequence arithmetic, sets instead of bitmaps), so a mistake the golden
// model shares with the RTL is still caught.
package scoreboard
