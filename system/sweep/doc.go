// Package sweep runs, tabulates and draws the results of `spraynic sim sweep`: goodput against random loss for each
// transport mode ("spray", "gbn") and path count.
package sweep
