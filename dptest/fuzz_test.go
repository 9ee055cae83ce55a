package dptest_test

import (
	"math/rand/v2"
	"testing"

	"pgregory.net/rapid"

	"github.com/dptest/dptest/dptest"
	"github.com/dptest/dptest/fixtures"
	"github.com/dptest/dptest/mechanisms"
)

// FuzzGaussianRDP runs the RDP property under go's fuzzer: rapid turns each
// fuzz input into a pair of neighbours in [0,1]^10, and the audit checks the
// Gaussian mechanism's claim on that pair. Run it with
//
//	go test -fuzz=FuzzGaussianRDP ./dptest
//
// Under plain go test it runs the seed inputs below. Each input is one audit
// at confidence 1 − 10⁻⁴ (the default), so a fuzzing session of N inputs
// falsely fails with probability at most N·10⁻⁴ (100,000 draws resolve
// this claim: fewer would end inconclusive); a failure prints the
// input's file under testdata/fuzz and the audit's seed.
func FuzzGaussianRDP(f *testing.F) {
	// Seed inputs: rapid reads the bytes as its random bit stream, so each
	// must be long enough for a whole pair (shorter ones are skipped).
	for i := uint64(0); i < 3; i++ {
		seed := make([]byte, 1024)
		r := rand.New(rand.NewPCG(i, i))
		for j := range seed {
			seed[j] = byte(r.Uint32())
		}
		f.Add(seed)
	}
	g := mechanisms.Gaussian{Sigma: 5}
	mech := dptest.Continuous(g.Sample)
	f.Fuzz(rapid.MakeFuzz(func(t *rapid.T) {
		pair := fixtures.UnitCube(10).Draw(t, "pair")
		dptest.RequireRDP(t, mech, 2, g.RDP(2),
			dptest.Pairs(pair), dptest.Candidates(0), dptest.Samples(100_000))
	}))
}
