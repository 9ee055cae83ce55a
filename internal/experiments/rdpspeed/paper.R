# The Rényi lower bound of Kutta, Askin, Dunsche (IEEE S&P 2024), eqs. (9)-(18),
# as their Section IV-A describes its R implementation: KernSmooth's dpik
# bandwidth raised to the power 1.1, bkde on 1000 grid points, Riemann sums.
suppressMessages(library(KernSmooth))
args <- commandArgs(trailingOnly = TRUE)
n <- if (length(args) >= 1) as.numeric(args[1]) else 5e6
reps <- if (length(args) >= 2) as.integer(args[2]) else 3
lambda <- 2; tau <- 1e-5; beta <- 1e5; alpha <- 0.05; b <- 5
softmax <- function(t) pmax(t, tau) + log1p(exp(-beta * abs(t - tau))) / beta
slope <- function(t) 1 / (1 + exp(-beta * (t - tau)))
one_bound <- function() {
  x <- 1 + rnorm(n, 0, b) # Gaussian mechanism on X = (1, 0, ..., 0)
  y <- 0 + rnorm(n, 0, b) # and on Y = (0, ..., 0)
  rng <- range(c(x, y))
  px <- bkde(x, bandwidth = dpik(x)^1.1, gridsize = 1000, range.x = rng)
  qy <- bkde(y, bandwidth = dpik(y)^1.1, gridsize = 1000, range.x = rng)
  dt <- px$x[2] - px$x[1]
  p <- pmax(px$y, 0); q <- pmax(qy$y, 0); qt <- softmax(q); s <- slope(q)
  I <- sum(p^lambda * qt^(1 - lambda)) * dt
  s1 <- lambda^2 * (sum(p^(2 * lambda - 1) * qt^(2 - 2 * lambda)) * dt - I^2)
  s2 <- (1 - lambda)^2 * (sum(s^2 * qt^(-2 * lambda) * q * p^(2 * lambda)) * dt -
                          (sum(s * qt^(-lambda) * q * p^lambda) * dt)^2)
  sigma <- sqrt((s1 + s2) / ((lambda - 1) * I)^2)
  log(I) / (lambda - 1) + qnorm(alpha) * sigma / sqrt(n)
}
for (i in seq_len(reps)) {
  t <- system.time(l <- one_bound())[["elapsed"]]
  cat(sprintf("bound %.5f (D = %.5f)  %.2f s\n", l, lambda / (2 * b^2), t))
}
