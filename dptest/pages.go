package dptest

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/dptest/dptest/fixtures"
	"github.com/dptest/dptest/internal/numeric"
	"github.com/dptest/dptest/internal/pages"
	"github.com/dptest/dptest/internal/plan"
	"github.com/dptest/dptest/internal/sampler"
	"github.com/dptest/dptest/internal/stat"
)

// PictureDraws is the number of outputs per side that a report's pictures
// draw on the witness pair, after the audit. Report.Calls leaves them
// out; Details.PictureCalls counts them.
const PictureDraws = 20_000

// pictureOrders are the Rényi orders an RDP page estimates, besides the
// claim's own, as far as they resolve.
var pictureOrders = []float64{1.5, 2, 3, 4, 6, 8, 12, 16, 24, 32}

// ReportTo writes every audit into the report directory dir: a page with
// its pictures, an index.html of the run, and report.json, one entry per
// audit (see docs/report-json.md). -dptest.report=DIR and DPTEST_REPORT
// set it for every audit. The pictures draw PictureDraws more outputs per
// side on the witness pair.
func ReportTo(dir string) Option {
	return option{"ReportTo", auditKinds, func(o *options) {
		if dir == "" {
			o.errs = append(o.errs, fmt.Errorf("dptest: ReportTo needs a directory"))
		}
		o.reportDir = dir
	}}
}

// Label names the audit in its report: the page's title and the index's
// test column (Details.Label). Inside a test the test's name is the
// default; outside one, "audit".
func Label(name string) Option {
	return option{"Label", auditKinds, func(o *options) { o.label = name }}
}

// optionsOf applies only the named options: those an audit needs before,
// or whether or not, its other options are valid.
func optionsOf(opts []Option, names ...string) *options {
	o := &options{}
	for _, opt := range opts {
		if op, ok := opt.(option); ok && slices.Contains(names, op.name) {
			op.set(o)
		}
	}
	return o
}

// reportDirOf is the report directory of an audit: its ReportTo option's,
// else the command line's; "" for none.
func reportDirOf(opts []Option) string {
	if o := optionsOf(opts, "ReportTo"); o.reportDir != "" {
		return o.reportDir
	}
	return fromModuleRoot(plan.ReportDir())
}

// fromModuleRoot resolves a relative directory of the command line against
// the module's root, the nearest directory above the working one that holds
// a go.mod: go test runs each package's binary in the package's directory,
// and go test ./... -dptest.report=DIR should write one DIR, not one per
// package. Outside a module the directory is left as it is.
func fromModuleRoot(dir string) string {
	if dir == "" || filepath.IsAbs(dir) {
		return dir
	}
	wd, err := os.Getwd()
	if err != nil {
		return dir
	}
	for d := wd; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return filepath.Join(d, dir)
		}
		if filepath.Dir(d) == d {
			return dir
		}
	}
}

// drawn holds the outputs drawn for a report's pictures, and the error
// that stopped them.
type drawn struct {
	xs, ys []any
	err    error
	// recorded: the outputs are the first of recordings, not fresh draws.
	recorded bool
}

// drawPictures draws the outputs of the witness pair for the pictures, on
// a stream of their own, and counts their calls in Details.PictureCalls.
func drawPictures[D any](rep *Report, src *sampler.Counter[D], seed uint64, pair fixtures.Pair[D]) {
	before := src.Calls()
	xs, ys, err := src.Outputs(plan.SubSeed(seed, "pictures", 0), pair.X, pair.Y, PictureDraws)
	rep.drawn = &drawn{xs: xs, ys: ys, err: err}
	rep.Details.PictureCalls = src.Calls() - before
}

// writeReport adds the audit's page to dir; a failure is recorded in
// Details.ReportError, which the test forms report as an error.
func writeReport(dir string, rep *Report) {
	json, err := rep.MarshalJSON()
	if err == nil {
		a := rep.page()
		a.JSON = json
		err = pages.Write(dir, a)
	}
	if err != nil {
		rep.Details.ReportError = err.Error()
	}
}

// page is what the report's page shows.
func (r Report) page() pages.Audit {
	verdict := r.Verdict.String()
	if r.Verdict == 0 {
		verdict = "error"
	}
	test := r.Details.Label
	if test == "" {
		test = r.Details.TestName
	}
	if test == "" {
		test = "audit"
	}
	a := pages.Audit{
		Test: test, Claim: r.claimText(), Verdict: verdict, Text: r.String(),
		Reproduce: r.Reproduce(), Bound: r.LowerBound, Resolution: r.Resolution,
		Calls: r.Calls, Seconds: r.Elapsed.Seconds(), Seed: r.Seed,
	}
	a.Facts = r.facts()
	a.Pictures, a.Notes = r.pictures()
	return a
}

// facts are the page's table.
func (r Report) facts() []pages.Fact {
	f := []pages.Fact{
		{Label: "claim", Value: r.claimText()},
		{Label: "verdict", Value: r.Verdict.String()},
	}
	if r.Reason != nil {
		f = append(f, pages.Fact{Label: "reason", Value: r.Reason.Text()})
	}
	f = append(f,
		pages.Fact{Label: "lower bound", Value: num(r.LowerBound)},
		pages.Fact{Label: "estimate", Value: num(r.Estimate)},
		pages.Fact{Label: "resolution", Value: num(r.Resolution)},
		pages.Fact{Label: "reach", Value: num(r.Reach)},
		pages.Fact{Label: "confidence", Value: num(r.Confidence)})
	if r.Witness != nil {
		f = append(f, pages.Fact{Label: "witness pair", Value: r.witnessText()}, pages.Fact{Label: "direction", Value: r.Direction})
	}
	if r.Details.Event != "" {
		f = append(f, pages.Fact{Label: "confirmed event", Value: fmt.Sprintf("%s: %d outputs on X, %d on Y, of %d a side",
			r.Details.Event, r.Details.EventCounts[0], r.Details.EventCounts[1], r.Details.Samples)})
	}
	return append(f,
		pages.Fact{Label: "seed", Value: fmt.Sprint(r.Seed)},
		pages.Fact{Label: "calls", Value: fmt.Sprintf("%d (and %d for these pictures)", r.Calls, r.Details.PictureCalls)},
		pages.Fact{Label: "time", Value: r.Elapsed.Round(time.Millisecond).String()})
}

// pictures draws the page's pictures, and says why any could not be.
func (r Report) pictures() (pics []pages.Picture, notes []string) {
	add := func(title, caption string, svg []byte, err error) {
		if err != nil {
			notes = append(notes, fmt.Sprintf("%s: not drawn (%v).", title, err))
			return
		}
		pics = append(pics, pages.Picture{Title: title, Caption: caption, SVG: svg})
	}
	if d, err := r.distributions(); err != nil {
		notes = append(notes, fmt.Sprintf("Output distributions: not drawn (%v).", err))
	} else {
		svg, err := pages.DistributionsSVG(d, "M(X)", "M(Y)")
		add("Output distributions on the witness pair", r.drawnText(), svg, err)
	}
	switch r.Claim.Kind {
	case plan.KindDP:
		if c := r.Details.LossCurve; c != nil {
			l := pages.LossPicture{T: c.T, Loss: c.Loss, Eps: r.Claim.Value}
			if t, ok := r.Details.Location.(float64); ok {
				l.Peak = &t
			}
			svg, err := pages.LossSVG(l)
			add("Privacy-loss curve", "The estimated loss ℓ̂(t) on the confirming draws, against the claimed ε [AKD22].", svg, err)
		} else if v, err := r.valueLoss(); err == nil {
			svg, err := pages.ValueLossSVG(v)
			add("Privacy loss per output value", fmt.Sprintf("ln(p̂/q̂) on the pictures' draws, for values seen at least %d times on each side.", minValueCount), svg, err)
		} else {
			notes = append(notes, fmt.Sprintf("Privacy-loss curve: not drawn (%v).", err))
		}
	case plan.KindApproxDP, plan.KindGDP:
		if len(r.Details.TradeOff) > 0 {
			svg, err := pages.TradeOffSVG(r.tradeOffPicture())
			add("Trade-off", "Tests on the confirming draws: no point may lie above the claim's curve.", svg, err)
		} else {
			notes = append(notes, "Trade-off: the audit confirmed no event to draw.")
		}
	case plan.KindRDP:
		o, err := r.ordersPicture()
		var svg []byte
		if err == nil {
			svg, err = pages.OrdersSVG(o)
		}
		add("Rényi divergence across orders", "Estimates on the pictures' outputs, each with its band at the audit's confidence. "+r.drawnText(), svg, err)
	}
	return pics, notes
}

// minValueCount is the least count, on each side, of a discrete value
// whose loss the pictures estimate.
const minValueCount = 20

// valueLoss estimates the loss of each discrete value from the pictures'
// draws, in the witness's direction.
func (r Report) valueLoss() (pages.ValueLoss, error) {
	d, err := r.distributions()
	if err != nil {
		return pages.ValueLoss{}, err
	}
	if d.Real {
		return pages.ValueLoss{}, fmt.Errorf("the criterion estimates no loss curve for these outputs")
	}
	cp, cq := d.CountX, d.CountY
	np, nq := float64(len(r.drawn.xs)), float64(len(r.drawn.ys)) // every output is counted under one label
	if r.reversed() {
		cp, cq, np, nq = cq, cp, nq, np
	}
	v := pages.ValueLoss{Eps: r.Claim.Value}
	for i, l := range d.Labels {
		if cp[i] >= minValueCount && cq[i] >= minValueCount && len(v.Labels) < pages.MaxBars {
			v.Labels = append(v.Labels, l)
			v.Loss = append(v.Loss, math.Log(float64(cp[i])/np)-math.Log(float64(cq[i])/nq))
		}
	}
	if len(v.Labels) == 0 {
		return v, fmt.Errorf("no value seen %d times on each side", minValueCount)
	}
	return v, nil
}

// drawnText says where the pictures' outputs came from.
func (r Report) drawnText() string {
	if r.drawn.recorded {
		return fmt.Sprintf("The first %d recorded outputs a side.", len(r.drawn.xs))
	}
	return fmt.Sprintf("%d fresh outputs a side, drawn after the audit.", len(r.drawn.xs))
}

// reversed says whether the witness's direction measures Y against X.
func (r Report) reversed() bool {
	return strings.Contains(r.Direction, "M(Y)‖") || strings.HasPrefix(r.Direction, "ln f_Y")
}

// distributions are the pictures' outputs as numbers or counted labels.
func (r Report) distributions() (pages.Distributions, error) {
	if r.drawn == nil {
		return pages.Distributions{}, fmt.Errorf("no witness pair to draw on")
	}
	if r.drawn.err != nil {
		return pages.Distributions{}, r.drawn.err
	}
	xs, ys := r.drawn.xs, r.drawn.ys
	if len(xs) == 0 {
		return pages.Distributions{}, fmt.Errorf("no outputs drawn")
	}
	d := pages.Distributions{XLabel: "output"}
	switch xs[0].(type) {
	case float64:
		d.Real, d.X, d.Y = true, floats(xs), floats(ys)
		if r.event.shadable() {
			d.InEventReal = func(v float64) bool { return r.event.contains(v) }
		}
		if t, ok := r.Details.Location.(float64); ok && r.Claim.Kind == plan.KindDP {
			d.Marker = &t
		}
	case []float64:
		d.Real = true
		if r.score == nil {
			d.XLabel = "projection of the output on the difference of the two means"
			d.X, d.Y = projected(xs, ys)
			break
		}
		d.XLabel = "the learned score: " + shorten(r.Details.Score, maxScoreLabel)
		d.X, d.Y = scored(r.score, xs), scored(r.score, ys)
		if r.event != nil {
			d.InEventReal = r.event.scoreIn
		}
	default:
		d.Labels, d.CountX, d.CountY = counted(xs, ys)
		if r.event.shadable() {
			in := map[string]bool{}
			for _, v := range append(slices.Clone(xs), ys...) {
				in[value(v)] = r.event.contains(v)
			}
			d.InEventLabel = make([]bool, len(d.Labels))
			for i, l := range d.Labels {
				d.InEventLabel[i] = in[l]
			}
		}
	}
	return d, nil
}

func floats(vs []any) []float64 {
	out := make([]float64, len(vs))
	for i, v := range vs {
		out[i] = v.(float64)
	}
	return out
}

// maxScoreLabel is the longest score description an axis shows.
const maxScoreLabel = 60

// scored maps vectors to a learned score's values.
func scored(sc *stat.Score, vs []any) []float64 {
	out := make([]float64, len(vs))
	for i, v := range vs {
		out[i] = sc.Of(v.([]float64))
	}
	return out
}

// projected maps vectors to their inner product with the difference of
// the two sides' means: a picture of where they differ most on average.
func projected(xs, ys []any) (px, py []float64) {
	mean := func(vs []any) []float64 {
		m := make([]float64, len(vs[0].([]float64)))
		for _, v := range vs {
			for j, c := range v.([]float64) {
				m[j] += c / float64(len(vs))
			}
		}
		return m
	}
	mx, my := mean(xs), mean(ys)
	dir := make([]float64, len(mx))
	for j := range dir {
		dir[j] = mx[j] - my[j]
	}
	dot := func(vs []any) []float64 {
		out := make([]float64, len(vs))
		for i, v := range vs {
			for j, c := range v.([]float64) {
				out[i] += c * dir[j]
			}
		}
		return out
	}
	return dot(xs), dot(ys)
}

// counted counts discrete outputs per printed value, in value order.
func counted(xs, ys []any) (labels []string, cx, cy []int) {
	byLabel := map[string]int{}
	var keys []any
	for _, v := range append(slices.Clone(xs), ys...) {
		l := value(v)
		if _, ok := byLabel[l]; !ok {
			byLabel[l] = len(keys)
			keys = append(keys, v)
		}
	}
	slices.SortFunc(keys, compareValues)
	index := map[string]int{}
	for i, k := range keys {
		labels = append(labels, value(k))
		index[value(k)] = i
	}
	cx, cy = make([]int, len(keys)), make([]int, len(keys))
	for _, v := range xs {
		cx[index[value(v)]]++
	}
	for _, v := range ys {
		cy[index[value(v)]]++
	}
	return labels, cx, cy
}

// tradeOffPicture is the confirmed tests beside the claim's bound on power:
// for (ε, δ)-DP, min(e^ε·α + δ, 1 − e^(−ε)·(1 − δ − α)); for μ-GDP,
// Φ(Φ⁻¹(α) + μ) ([KMRS24]).
func (r Report) tradeOffPicture() pages.TradeOffPicture {
	t := pages.TradeOffPicture{}
	for _, q := range r.Details.TradeOff {
		t.Points = append(t.Points, pages.TradeOffPoint{Level: q.Level, Power: q.Power, LevelHi: q.LevelHi, PowerLo: q.PowerLo})
	}
	if r.Claim.Kind == plan.KindGDP {
		mu := r.Claim.Value
		t.ClaimName = fmt.Sprintf("μ = %s: Φ(Φ⁻¹(α) + μ)", num(mu))
		t.Claim = func(a float64) float64 {
			if a <= 0 {
				return 0
			}
			return numeric.NormalCDF(numeric.NormalQuantile(a) + mu)
		}
		return t
	}
	eps, delta := r.Claim.Eps, r.Claim.Value
	t.ClaimName = fmt.Sprintf("(ε, δ) = (%s, %s)", num(eps), num(delta))
	t.Claim = func(a float64) float64 {
		return math.Max(0, math.Min(math.Exp(eps)*a+delta, 1-math.Exp(-eps)*(1-delta-a)))
	}
	return t
}

// ordersPicture estimates the Rényi divergence of the witness's direction
// at pictureOrders and the claim's order, from the pictures' outputs, as
// far as the orders resolve.
func (r Report) ordersPicture() (pages.OrdersPicture, error) {
	o := pages.OrdersPicture{ClaimLambda: r.Claim.Lambda, Eps: r.Claim.Value}
	if r.drawn == nil || r.drawn.err != nil || len(r.drawn.xs) == 0 {
		return o, fmt.Errorf("no outputs drawn on a witness pair")
	}
	xs, ys := r.drawn.xs, r.drawn.ys
	o.Draws = len(xs)
	if r.reversed() {
		xs, ys = ys, xs
	}
	sample := func() (stat.Sample, error) {
		switch xs[0].(type) {
		case float64:
			return stat.FromValues(floats(xs), floats(ys))
		case []float64:
			if r.score != nil {
				return stat.FromValues(scored(r.score, xs), scored(r.score, ys))
			}
			px, py := projected(xs, ys)
			return stat.FromValues(px, py)
		}
		return stat.FromOutputs(xs, ys)
	}
	orders := append(slices.Clone(pictureOrders), r.Claim.Lambda)
	slices.Sort(orders)
	orders = slices.Compact(orders)
	z := numeric.UpperNormalQuantile(1 - r.Confidence)
	for _, l := range orders {
		b, err := boundOf(plan.Claim{Kind: plan.KindRDP, Lambda: l}, []Option{Confidence(r.Confidence)}, sample)
		if err != nil || math.IsInf(b.StdErr, 0) || math.IsNaN(b.Estimate) {
			continue
		}
		o.Points = append(o.Points, pages.OrderPoint{Lambda: l, Estimate: b.Estimate, Lower: b.LowerBound, Upper: b.Estimate + z*b.StdErr})
	}
	if len(o.Points) == 0 {
		return o, fmt.Errorf("no order resolved on %d draws a side", PictureDraws)
	}
	return o, nil
}
