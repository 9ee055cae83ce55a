package sampler

import (
	"math/rand/v2"
	"testing"

	"github.com/dptest/dptest/internal/stat"
	"github.com/dptest/dptest/mechanisms"
)

type discardStat struct{}

func (*discardStat) Add(float64)        {}
func (*discardStat) Merge(*discardStat) {}

var gm = mechanisms.Gaussian{Sigma: 5}
var xx = []float64{1, 0, 0, 0, 0, 0, 0, 0, 0, 0}

func f(r *rand.Rand) float64 { return gm.Sample(r, xx) }

func BenchmarkDrawDiscard2(b *testing.B) {
	for i := 0; i < b.N; i++ {
		Draw(Stream{Seed: 1, ID: 1, Workers: 2}, 1<<20, f, stat.CheckFinite, func() *discardStat { return &discardStat{} })
	}
}
func BenchmarkDrawReal2(b *testing.B) {
	d := stat.GridDesign(stat.Grid{Lo: -40, Step: 80.0 / 3399, Points: 3400}, nil)
	for i := 0; i < b.N; i++ {
		Draw(Stream{Seed: 1, ID: 1, Workers: 2}, 1<<20, f, stat.CheckFinite, d.New)
	}
}
