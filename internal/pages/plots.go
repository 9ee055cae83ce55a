package pages

import (
	"bytes"
	"errors"
	"fmt"
	"image/color"
	"math"
	"slices"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Picture sizes and the histogram's shape.
const (
	plotWidth  = 16 * vg.Centimeter
	plotHeight = 9 * vg.Centimeter
	// HistogramBins is the number of bins of a real output's histogram.
	HistogramBins = 60
	// MaxBars is the number of discrete values drawn as bars; the rest
	// are summed into one bar.
	MaxBars = 30
	// legendRoom is the share of a plot's height left free above its
	// curves for the legend.
	legendRoom = 0.3
	// tailShare is the share of outputs left out at each end of a
	// histogram's range, so that one far output does not flatten it.
	tailShare = 0.002
)

var (
	colorX     = color.RGBA{R: 31, G: 119, B: 180, A: 255}
	colorY     = color.RGBA{R: 214, G: 39, B: 40, A: 255}
	colorClaim = color.RGBA{A: 255}
	colorEvent = color.NRGBA{R: 255, G: 190, B: 60, A: 110}
	colorBand  = color.NRGBA{R: 31, G: 119, B: 180, A: 60}
)

// Distributions are the outputs drawn on the witness pair for a picture:
// real values (or a vector's projection) in X and Y, or discrete values
// counted per label. InEvent marks the outputs of the confirmed event.
type Distributions struct {
	XLabel string
	Real   bool
	X, Y   []float64
	// Labels, CountX and CountY are the discrete values and their counts.
	Labels         []string
	CountX, CountY []int
	// InEventReal says whether a real value is in the event; InEventLabel
	// whether a discrete label is. Nil: no event to shade.
	InEventReal  func(float64) bool
	InEventLabel []bool
	// Marker, if set, is an output to mark (the peak t̂ of a loss curve).
	Marker *float64
}

// LossPicture is an estimated privacy-loss curve ℓ̂(t) against the claim.
type LossPicture struct {
	T, Loss []float64
	Eps     float64
	Peak    *float64
}

// TradeOffPoint is one estimated test: its level α and power 1 − β, with
// their confidence ends.
type TradeOffPoint struct{ Level, Power, LevelHi, PowerLo float64 }

// TradeOffPicture is the estimated trade-off points beside the claimed
// bound on power: Claim(α) is the most power the claim allows at level α.
type TradeOffPicture struct {
	Points    []TradeOffPoint
	Claim     func(level float64) float64
	ClaimName string
}

// OrderPoint is a Rényi divergence estimated at one order, with its
// confidence band.
type OrderPoint struct{ Lambda, Estimate, Lower, Upper float64 }

// OrdersPicture is the Rényi divergence across orders against the claim.
type OrdersPicture struct {
	Points           []OrderPoint
	ClaimLambda, Eps float64
	Draws            int
}

// svgOf renders p as SVG markup, without the XML header.
func svgOf(p *plot.Plot) ([]byte, error) {
	w, err := p.WriterTo(plotWidth, plotHeight, "svg")
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	if _, err := w.WriteTo(&b); err != nil {
		return nil, err
	}
	out := b.Bytes()
	if i := bytes.Index(out, []byte("<svg")); i > 0 {
		out = out[i:]
	}
	return out, nil
}

// DistributionsSVG draws the two output distributions of the witness pair:
// densities for real values, bars for discrete ones, the event shaded.
func DistributionsSVG(d Distributions, nameX, nameY string) ([]byte, error) {
	p := plot.New()
	p.X.Label.Text, p.Y.Label.Text = d.XLabel, "share of outputs"
	p.Legend.Top = true
	var err error
	if d.Real {
		err = realDistributions(p, d, nameX, nameY)
	} else {
		err = discreteDistributions(p, d, nameX, nameY)
	}
	if err != nil {
		return nil, err
	}
	return svgOf(p)
}

// histogramRange is the range of a histogram of xs and ys: all outputs but
// tailShare at each end.
func histogramRange(xs, ys []float64) (lo, hi float64, err error) {
	all := append(slices.Clone(xs), ys...)
	if len(all) == 0 {
		return 0, 0, errors.New("pages: no outputs to draw")
	}
	slices.Sort(all)
	cut := int(tailShare * float64(len(all)))
	lo, hi = all[cut], all[len(all)-1-cut]
	if lo == hi {
		lo, hi = lo-0.5, hi+0.5
	}
	return lo, hi, nil
}

func realDistributions(p *plot.Plot, d Distributions, nameX, nameY string) error {
	lo, hi, err := histogramRange(d.X, d.Y)
	if err != nil {
		return err
	}
	width := (hi - lo) / HistogramBins
	shares := func(vs []float64) []float64 {
		s := make([]float64, HistogramBins)
		for _, v := range vs {
			if b := int((v - lo) / width); b >= 0 && b < HistogramBins {
				s[b]++
			} else if v == hi {
				s[HistogramBins-1]++
			}
		}
		for i := range s {
			s[i] /= float64(max(1, len(vs)))
		}
		return s
	}
	sx, sy := shares(d.X), shares(d.Y)
	top := max(slices.Max(sx), slices.Max(sy))
	if d.InEventReal != nil {
		named := false
		for b := range HistogramBins {
			if a := lo + (float64(b)+0.5)*width; d.InEventReal(a) {
				if err := shade(p, lo+float64(b)*width, lo+float64(b+1)*width, top, &named); err != nil {
					return err
				}
			}
		}
	}
	for i, s := range [][]float64{sx, sy} {
		line, err := plotter.NewLine(steps(lo, width, s))
		if err != nil {
			return err
		}
		line.Color, line.Width = []color.Color{colorX, colorY}[i], vg.Points(1.5)
		p.Add(line)
		p.Legend.Add([]string{nameX, nameY}[i], line)
	}
	if d.Marker != nil {
		if err := vertical(p, *d.Marker, 0, top, "peak t̂"); err != nil {
			return err
		}
	}
	return nil
}

// shade adds the event's band over [a, b], named in the legend once.
func shade(p *plot.Plot, a, b, top float64, named *bool) error {
	poly, err := plotter.NewPolygon(plotter.XYs{{X: a, Y: 0}, {X: b, Y: 0}, {X: b, Y: top}, {X: a, Y: top}})
	if err != nil {
		return err
	}
	poly.Color, poly.LineStyle.Width = colorEvent, 0
	p.Add(poly)
	if !*named {
		p.Legend.Add("confirmed event", poly)
		*named = true
	}
	return nil
}

// steps is a histogram's outline: a step at every bin.
func steps(lo, width float64, s []float64) plotter.XYs {
	xys := make(plotter.XYs, 0, 2*len(s))
	for i, v := range s {
		xys = append(xys, plotter.XY{X: lo + float64(i)*width, Y: v}, plotter.XY{X: lo + float64(i+1)*width, Y: v})
	}
	return xys
}

// vertical adds a dashed vertical line at x from y0 to y1, named.
func vertical(p *plot.Plot, x, y0, y1 float64, name string) error {
	line, err := plotter.NewLine(plotter.XYs{{X: x, Y: y0}, {X: x, Y: y1}})
	if err != nil {
		return err
	}
	line.Color, line.Dashes = colorClaim, []vg.Length{vg.Points(4), vg.Points(3)}
	p.Add(line)
	p.Legend.Add(name, line)
	return nil
}

func discreteDistributions(p *plot.Plot, d Distributions, nameX, nameY string) error {
	if len(d.Labels) == 0 || len(d.CountX) != len(d.Labels) || len(d.CountY) != len(d.Labels) {
		return errors.New("pages: discrete distributions need one count per label and side")
	}
	labels, cx, cy, inEvent := topLabels(d)
	nx, ny := total(d.CountX), total(d.CountY)
	shares := func(c []int, n int) plotter.Values {
		v := make(plotter.Values, len(c))
		for i, k := range c {
			v[i] = float64(k) / float64(max(1, n))
		}
		return v
	}
	w := vg.Points(max(2, 140/float64(len(labels))))
	sx, sy := shares(cx, nx), shares(cy, ny)
	top := max(slices.Max(sx), slices.Max(sy))
	named := false
	for i, in := range inEvent {
		if in {
			if err := shade(p, float64(i)-0.5, float64(i)+0.5, top, &named); err != nil {
				return err
			}
		}
	}
	for i, v := range []plotter.Values{sx, sy} {
		bars, err := plotter.NewBarChart(v, w)
		if err != nil {
			return err
		}
		bars.Color, bars.LineStyle.Width = []color.Color{colorX, colorY}[i], 0
		bars.Offset = vg.Length(2*i-1) * w / 2
		p.Add(bars)
		p.Legend.Add([]string{nameX, nameY}[i], bars)
	}
	p.NominalX(labels...)
	if len(labels) > 12 {
		p.X.Tick.Label.Rotation, p.X.Tick.Label.XAlign, p.X.Tick.Label.YAlign = math.Pi/3, draw.XRight, draw.YCenter
	}
	return nil
}

func total(c []int) int {
	n := 0
	for _, k := range c {
		n += k
	}
	return n
}

// topLabels keeps the MaxBars−1 most frequent labels, in their order, and
// sums the rest into "other".
func topLabels(d Distributions) (labels []string, cx, cy []int, inEvent []bool) {
	idx := make([]int, len(d.Labels))
	for i := range idx {
		idx[i] = i
	}
	if len(idx) > MaxBars {
		slices.SortStableFunc(idx, func(a, b int) int { return (d.CountX[b] + d.CountY[b]) - (d.CountX[a] + d.CountY[a]) })
		idx = idx[:MaxBars-1]
		slices.Sort(idx)
	}
	kept := map[int]bool{}
	for _, i := range idx {
		kept[i] = true
		labels, cx, cy = append(labels, shorten(d.Labels[i])), append(cx, d.CountX[i]), append(cy, d.CountY[i])
		inEvent = append(inEvent, d.InEventLabel != nil && d.InEventLabel[i])
	}
	if len(kept) < len(d.Labels) {
		ox, oy := 0, 0
		for i := range d.Labels {
			if !kept[i] {
				ox, oy = ox+d.CountX[i], oy+d.CountY[i]
			}
		}
		labels, cx, cy, inEvent = append(labels, fmt.Sprintf("%d others", len(d.Labels)-len(kept))), append(cx, ox), append(cy, oy), append(inEvent, false)
	}
	return labels, cx, cy, inEvent
}

// shorten cuts a long label for an axis.
func shorten(s string) string {
	const most = 14
	if r := []rune(s); len(r) > most {
		return string(r[:most-1]) + "…"
	}
	return strings.TrimSpace(s)
}

// LossSVG draws the privacy-loss curve ℓ̂(t) with the claimed ε and the
// peak t̂ ([AKD22] Figs. 2–3).
func LossSVG(l LossPicture) ([]byte, error) {
	if len(l.T) == 0 || len(l.T) != len(l.Loss) {
		return nil, errors.New("pages: a loss curve needs one loss per point")
	}
	p := plot.New()
	p.X.Label.Text, p.Y.Label.Text = "output t", "estimated privacy loss ℓ̂(t)"
	p.Legend.Top = true
	xys := make(plotter.XYs, len(l.T))
	top := l.Eps
	for i := range l.T {
		xys[i] = plotter.XY{X: l.T[i], Y: l.Loss[i]}
		top = max(top, l.Loss[i])
	}
	line, err := plotter.NewLine(xys)
	if err != nil {
		return nil, err
	}
	line.Color, line.Width = colorX, vg.Points(1.5)
	p.Add(line)
	p.Legend.Add("ℓ̂(t)", line)
	if err := horizontal(p, l.T[0], l.T[len(l.T)-1], l.Eps, fmt.Sprintf("claimed ε = %.4g", l.Eps)); err != nil {
		return nil, err
	}
	if l.Peak != nil {
		if err := vertical(p, *l.Peak, 0, top, "peak t̂"); err != nil {
			return nil, err
		}
	}
	p.Y.Min = min(0, p.Y.Min)
	p.Y.Max = top + legendRoom*(top-p.Y.Min)
	return svgOf(p)
}

// horizontal adds the claim's line at y over [x0, x1].
func horizontal(p *plot.Plot, x0, x1, y float64, name string) error {
	line, err := plotter.NewLine(plotter.XYs{{X: x0, Y: y}, {X: x1, Y: y}})
	if err != nil {
		return err
	}
	line.Color, line.Width = colorClaim, vg.Points(1.5)
	line.Dashes = []vg.Length{vg.Points(6), vg.Points(3)}
	p.Add(line)
	p.Legend.Add(name, line)
	return nil
}

// TradeOffSVG draws the estimated tests (level, power), with the
// confidence ends of each, beside the most power the claim allows.
func TradeOffSVG(t TradeOffPicture) ([]byte, error) {
	if len(t.Points) == 0 || t.Claim == nil {
		return nil, errors.New("pages: a trade-off picture needs points and the claim's curve")
	}
	p := plot.New()
	p.X.Label.Text, p.Y.Label.Text = "level α (type I error)", "power 1 − β"
	p.Legend.Top, p.Legend.Left = false, false
	const steps = 200
	curve := make(plotter.XYs, steps+1)
	for i := range curve {
		a := float64(i) / steps
		curve[i] = plotter.XY{X: a, Y: math.Min(1, t.Claim(a))}
	}
	line, err := plotter.NewLine(curve)
	if err != nil {
		return nil, err
	}
	line.Color, line.Width = colorClaim, vg.Points(1.5)
	p.Add(line)
	p.Legend.Add(t.ClaimName, line)
	pts, ends := make(plotter.XYs, len(t.Points)), make(plotter.XYs, len(t.Points))
	for i, q := range t.Points {
		pts[i], ends[i] = plotter.XY{X: q.Level, Y: q.Power}, plotter.XY{X: q.LevelHi, Y: q.PowerLo}
	}
	for i, set := range []plotter.XYs{pts, ends} {
		sc, err := plotter.NewScatter(set)
		if err != nil {
			return nil, err
		}
		sc.Color = []color.Color{colorX, colorY}[i]
		sc.Shape = []draw.GlyphDrawer{draw.CircleGlyph{}, draw.CrossGlyph{}}[i]
		p.Add(sc)
		p.Legend.Add([]string{"estimated tests", "their confidence ends"}[i], sc)
	}
	p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = 0, 1, 0, 1
	return svgOf(p)
}

// OrdersSVG draws the Rényi divergence's estimate and confidence band
// across orders, and the claim at its order.
func OrdersSVG(o OrdersPicture) ([]byte, error) {
	if len(o.Points) == 0 {
		return nil, errors.New("pages: no order resolved")
	}
	p := plot.New()
	p.X.Label.Text, p.Y.Label.Text = "order λ", "Rényi divergence D_λ"
	p.Legend.Top, p.Legend.Left = true, true
	band := make(plotter.XYs, 0, 2*len(o.Points))
	est := make(plotter.XYs, len(o.Points))
	for i, q := range o.Points {
		est[i] = plotter.XY{X: q.Lambda, Y: q.Estimate}
		band = append(band, plotter.XY{X: q.Lambda, Y: q.Lower})
	}
	for i := len(o.Points) - 1; i >= 0; i-- {
		band = append(band, plotter.XY{X: o.Points[i].Lambda, Y: o.Points[i].Upper})
	}
	poly, err := plotter.NewPolygon(band)
	if err != nil {
		return nil, err
	}
	poly.Color, poly.LineStyle.Width = colorBand, 0
	p.Add(poly)
	p.Legend.Add("confidence band", poly)
	line, sc, err := plotter.NewLinePoints(est)
	if err != nil {
		return nil, err
	}
	line.Color, sc.Color = colorX, colorX
	p.Add(line, sc)
	p.Legend.Add(fmt.Sprintf("estimate (%d outputs a side)", o.Draws), line)
	claim, err := plotter.NewScatter(plotter.XYs{{X: o.ClaimLambda, Y: o.Eps}})
	if err != nil {
		return nil, err
	}
	claim.Color, claim.Shape, claim.Radius = colorClaim, draw.PyramidGlyph{}, vg.Points(5)
	p.Add(claim)
	p.Legend.Add(fmt.Sprintf("claim: ε = %.4g at λ = %g", o.Eps, o.ClaimLambda), claim)
	p.Y.Min = min(0, p.Y.Min)
	return svgOf(p)
}

// ValueLoss is the estimated privacy loss ln(p̂(v)/q̂(v)) of each discrete
// output value v seen on both sides.
type ValueLoss struct {
	Labels []string
	Loss   []float64
	Eps    float64
}

// ValueLossSVG draws each value's estimated loss as a bar, with the
// claimed ε above and below.
func ValueLossSVG(v ValueLoss) ([]byte, error) {
	if len(v.Labels) == 0 || len(v.Labels) != len(v.Loss) {
		return nil, errors.New("pages: no value seen often enough on both sides")
	}
	p := plot.New()
	p.X.Label.Text, p.Y.Label.Text = "output", "estimated privacy loss ln(p̂/q̂)"
	p.Legend.Top = true
	bars, err := plotter.NewBarChart(plotter.Values(v.Loss), vg.Points(max(2, 240/float64(len(v.Loss)))))
	if err != nil {
		return nil, err
	}
	bars.Color, bars.LineStyle.Width = colorX, 0
	p.Add(bars)
	p.Legend.Add("ln(p̂/q̂)", bars)
	n := float64(len(v.Loss))
	if err := horizontal(p, -0.5, n-0.5, v.Eps, fmt.Sprintf("claimed ε = %.4g", v.Eps)); err != nil {
		return nil, err
	}
	below, err := plotter.NewLine(plotter.XYs{{X: -0.5, Y: -v.Eps}, {X: n - 0.5, Y: -v.Eps}})
	if err != nil {
		return nil, err
	}
	below.Color, below.Width, below.Dashes = colorClaim, vg.Points(1.5), []vg.Length{vg.Points(6), vg.Points(3)}
	p.Add(below)
	p.NominalX(v.Labels...)
	top := max(v.Eps, slices.Max(v.Loss))
	p.Y.Min = min(-v.Eps, slices.Min(v.Loss))
	p.Y.Max = top + legendRoom*(top-p.Y.Min)
	return svgOf(p)
}
