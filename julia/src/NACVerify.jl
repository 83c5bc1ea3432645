"""
    NACVerify

The ODEs that nacverify verifies, written in Julia for OrdinaryDiffEq (DifferentialEquations.jl).
They mirror the Python definitions term by term:

* NAC logit ODE (seed 001 eq. 1; seed 000 eq. 33): `a' = -ω(t) a + φ(t)` for an ensemble of
  members, with the shape-family regimes of `nacverify.regimes`
  (`φ = φ0 (1 + Aφ g(t))`, `ω = ω0 (1 + Aω g(t))`, `g` one of slow/fast/step/oscillatory),
  or custom formulas `φ(t)`, `ω(t)` (Julia functions).
* Abstract LTC (seed 002 eq. 7): `dx/dt = -(1/τ + f) .* x + f .* A`,
  `f = act.(γr' x + γ' I(t) + μ)` (row-vector convention of `nacverify.ltc`: `x γr`).
* Biophysical LTC (seed 002 eq. 1-2): `C dv_i/dt = G(VL - v_i) + Σ_j w_ij σ(γ_ij (v_j + μ_ij))(E_ij - v_i)
  + Σ_m ws_im σ(γs_im (I_m + μs_im))(Es_im - v_i)`, matrices indexed [post, pre].
* Inputs: smooth sums of sines, or sample-and-hold values at irregular event times.

`solve_problem` integrates piece by piece between the breaks (jumps of the vector field),
evaluating every piecewise-constant part at the piece's midpoint `ref`, and returns the values
on the grid plus step statistics.
"""
module NACVerify

using LinearAlgebra
using OrdinaryDiffEq
import SciMLBase

export shape_nac, custom_nac, abstract_ltc, biophysical_ltc, smooth_input, held_input, solve_problem, algorithm

# ----------------------------------------------------------------------------- algorithms

const ALGORITHMS = Dict{String,Function}(
    "Vern9" => () -> Vern9(),
    "Rodas5P" => () -> Rodas5P(),
    "Tsit5" => () -> Tsit5(),
    "RadauIIA5" => () -> RadauIIA5(),
)

function algorithm(name::AbstractString)
    haskey(ALGORITHMS, name) || throw(ArgumentError("unknown algorithm $name; choose one of $(join(sort!(collect(keys(ALGORITHMS))), ", "))"))
    return ALGORITHMS[name]()
end

# ----------------------------------------------------------------------------- inputs

abstract type Input end

"I_m(t) = offset_m + Σ_k amp[k,m] sin(2π freq[k,m] t/T + phase[k,m])."
struct SmoothInput <: Input
    offset::Vector{Float64}
    amp::Matrix{Float64}
    freq::Matrix{Float64}
    phase::Matrix{Float64}
    T::Float64
end

"I(t) = values[#{j : times[j] <= t} + 1, :] (right-continuous sample-and-hold)."
struct HeldInput <: Input
    times::Vector{Float64}
    values::Matrix{Float64}
end

smooth_input(offset, amp, freq, phase, T) = SmoothInput(Vector{Float64}(offset), Matrix{Float64}(amp), Matrix{Float64}(freq), Matrix{Float64}(phase), Float64(T))
held_input(times, values) = HeldInput(Vector{Float64}(times), Matrix{Float64}(values))

function input_value(s::SmoothInput, t, ref)
    return s.offset .+ vec(sum(s.amp .* sin.(2π .* s.freq .* (t / s.T) .+ s.phase); dims=1))
end

input_value(h::HeldInput, t, ref) = h.values[searchsortedlast(h.times, ref) + 1, :]

# ----------------------------------------------------------------------------- NAC

"Shape family of nacverify.regimes: kind ∈ (:slow, :fast, :step, :oscillatory)."
struct ShapeNAC
    kind::Symbol
    T::Float64
    phi0::Vector{Float64}
    omega0::Vector{Float64}
    phi_amp::Vector{Float64}
    omega_amp::Vector{Float64}
    shape::Vector{Float64}
end

shape_nac(kind, T, phi0, omega0, phi_amp, omega_amp, shape) = ShapeNAC(Symbol(kind), Float64(T), Vector{Float64}(phi0), Vector{Float64}(omega0),
                                                                      Vector{Float64}(phi_amp), Vector{Float64}(omega_amp), Vector{Float64}(shape))

"One custom pair of coefficient functions t -> φ(t), t -> ω(t) (a single member)."
struct CustomNAC{F,G}
    phi::F
    omega::G
end

custom_nac(phi, omega) = CustomNAC(phi, omega)

"g at x = t/T (nacverify.regimes._shape)."
function shape_g(kind::Symbol, x, s)
    if kind === :slow
        return x
    elseif kind === :fast
        return expm1(s * x) / expm1(s)
    elseif kind === :step
        return x >= s ? one(x) : zero(x)
    elseif kind === :oscillatory
        return sin(2π * s * x)
    end
    throw(ArgumentError("unknown regime $kind"))
end

function rhs!(du, u, p::Tuple{ShapeNAC,Nothing,Float64}, t)
    m, _, ref = p
    s = m.kind === :step ? ref : t
    @inbounds for i in eachindex(u)
        g = shape_g(m.kind, s / m.T, m.shape[i])
        du[i] = -m.omega0[i] * (1 + m.omega_amp[i] * g) * u[i] + m.phi0[i] * (1 + m.phi_amp[i] * g)
    end
    return nothing
end

function rhs!(du, u, p::Tuple{CustomNAC,Nothing,Float64}, t)
    m = p[1]
    @inbounds for i in eachindex(u)
        du[i] = -m.omega(t) * u[i] + m.phi(t)
    end
    return nothing
end

# ----------------------------------------------------------------------------- LTC

"Seed 002 eq. 7 with f = act(x γr + I γ + μ); γr is N×N, γ is M×N (rows: presynaptic)."
struct AbstractLTC
    tau::Vector{Float64}
    gamma_r::Matrix{Float64}
    gamma::Matrix{Float64}
    mu::Vector{Float64}
    A::Vector{Float64}
    activation::Symbol
end

abstract_ltc(tau, gamma_r, gamma, mu, A, activation) = AbstractLTC(Vector{Float64}(tau), Matrix{Float64}(gamma_r), Matrix{Float64}(gamma),
                                                                   Vector{Float64}(mu), Vector{Float64}(A), Symbol(activation))

"Seed 002 eq. 1-2 plus sensory synapses; matrices indexed [post, pre]."
struct BiophysicalLTC
    cm::Vector{Float64}
    g_leak::Vector{Float64}
    v_leak::Vector{Float64}
    w::Matrix{Float64}
    gamma::Matrix{Float64}
    mu::Matrix{Float64}
    E::Matrix{Float64}
    w_s::Matrix{Float64}
    gamma_s::Matrix{Float64}
    mu_s::Matrix{Float64}
    E_s::Matrix{Float64}
end

biophysical_ltc(cm, g_leak, v_leak, w, gamma, mu, E, w_s, gamma_s, mu_s, E_s) = BiophysicalLTC(
    Vector{Float64}(cm), Vector{Float64}(g_leak), Vector{Float64}(v_leak),
    Matrix{Float64}(w), Matrix{Float64}(gamma), Matrix{Float64}(mu), Matrix{Float64}(E),
    Matrix{Float64}(w_s), Matrix{Float64}(gamma_s), Matrix{Float64}(mu_s), Matrix{Float64}(E_s))

sigmoid(z) = 1 / (1 + exp(-z))

function rhs!(du, x, p::Tuple{AbstractLTC,Input,Float64}, t)
    m, sig, ref = p
    I = input_value(sig, t, ref)
    z = transpose(m.gamma_r) * x .+ transpose(m.gamma) * I .+ m.mu
    f = m.activation === :tanh ? tanh.(z) : sigmoid.(z)
    @. du = -(1 / m.tau + f) * x + f * m.A
    return nothing
end

function rhs!(dv, v, p::Tuple{BiophysicalLTC,Input,Float64}, t)
    m, sig, ref = p
    I = input_value(sig, t, ref)
    g = m.w .* sigmoid.(m.gamma .* (transpose(v) .+ m.mu))
    gs = m.w_s .* sigmoid.(m.gamma_s .* (transpose(I) .+ m.mu_s))
    syn = vec(sum(g .* m.E; dims=2)) .- vec(sum(g; dims=2)) .* v .+ vec(sum(gs .* m.E_s; dims=2)) .- vec(sum(gs; dims=2)) .* v
    @. dv = (m.g_leak * (m.v_leak - v) + syn) / m.cm
    return nothing
end

# ----------------------------------------------------------------------------- driver

"""
    solve_problem(model, input, u0, ts, breaks, alg, rtol, atol)

Integrate from `u0` at `ts[1]` to `ts[end]`, piece by piece between the `breaks` inside
(ts[1], ts[end]); return `(ys = D×P matrix on the grid ts, naccept, nreject, nf)`.
"""
function solve_problem(model, input, u0, ts, breaks, alg::AbstractString, rtol::Real, atol::Real)
    grid = Vector{Float64}(ts)
    t0, t1 = grid[1], grid[end]
    inner = sort!(unique!([Float64(b) for b in breaks if t0 < b < t1]))
    edges = vcat(t0, inner, t1)
    u = Vector{Float64}(u0)
    ys = fill(NaN, length(u), length(grid))
    ys[:, 1] .= u
    solver = algorithm(alg)
    naccept = nreject = nf = 0
    for k in 1:(length(edges) - 1)
        a, b = edges[k], edges[k + 1]
        ref = (a + b) / 2
        wanted = [t for t in grid if a < t <= b]
        prob = ODEProblem(rhs!, u, (a, b), (model, input, ref))
        sol = solve(prob, solver; reltol=rtol, abstol=atol, saveat=wanted, save_start=true, save_end=true, dense=false, maxiters=10^8)
        SciMLBase.successful_retcode(sol) || error("solver $alg stopped on [$a, $b] with retcode $(sol.retcode)")
        sol.t[end] == b || error("solver $alg ended at $(sol.t[end]), not at $b")
        for (j, t) in enumerate(grid)
            if a < t <= b
                idx = findlast(==(t), sol.t)
                idx === nothing && error("grid point $t was not saved")
                ys[:, j] .= sol.u[idx]
            end
        end
        u = Vector{Float64}(sol.u[end])
        naccept += sol.stats.naccept
        nreject += sol.stats.nreject
        nf += sol.stats.nf
    end
    return (ys = ys, naccept = naccept, nreject = nreject, nf = nf)
end

end # module
