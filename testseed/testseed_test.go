package testseed_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/spraynic/spraynic/testseed"
)

func TestSeed(t *testing.T) {
	t.Setenv("SEED", "")
	require.Equal(t, uint64(testseed.Default), testseed.Seed(t))
	t.Setenv("SEED", "42")
	require.Equal(t, uint64(42), testseed.Seed(t))
}
