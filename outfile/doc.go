// Package outfile writes output files so that none is ever left half-written: each path is checked before the
// work that fills it (Check), written to a temporary file in the same directory (Create) and renamed over the
// final path only when complete (Commit). An error (Abort) or a signal (AbortAll) removes the temporary file and
// leaves the final path as it was.
//
// A path that exists and is not a regular file (/dev/null, /dev/stdout, a pipe) is written in place, and a
// symbolic link is followed: the file it points to is replaced.
package outfile
