package numeric

import "gonum.org/v1/gonum/mat"

// SolveSymmetric solves A w = b for a symmetric positive-definite d×d
// matrix A, given row-major and symmetric, by its Cholesky
// factorisation; ok is false when A is not numerically positive definite.
func SolveSymmetric(a []float64, d int, b []float64) (w []float64, ok bool) {
	sym := mat.NewSymDense(d, append([]float64(nil), a...))
	var chol mat.Cholesky
	if !chol.Factorize(sym) {
		return nil, false
	}
	var x mat.VecDense
	if err := chol.SolveVecTo(&x, mat.NewVecDense(d, append([]float64(nil), b...))); err != nil {
		return nil, false
	}
	return append([]float64(nil), x.RawVector().Data...), true
}
