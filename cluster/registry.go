package cluster

// registry lists every method. Add new methods here.
func registry() []Info {
	return []Info{
		{Name: "njw", Summary: "normalized spectral clustering of Ng, Jordan and Weiss (SPH. SC)", Source: "thesis Alg. 3", Supervision: None, New: func() Method { return NJW{} }},
		{Name: "ncut", Summary: "normalized cut of Shi and Malik, L u = λ D u", Source: "thesis Alg. 2", Supervision: None, New: func() Method { return ShiMalik{} }},
		{Name: "usc", Summary: "unnormalized spectral clustering, L = D − W", Source: "seed 004 ch. 2", Supervision: None, New: func() Method { return Unnormalized{} }},
		{Name: "hbisect", Summary: "hierarchical bisection by Cheeger sweeps (H. BISECTION)", Source: "thesis Alg. 1, eq. 2.3.21", Supervision: None, New: func() Method { return HBisection{} }},
		{Name: "bethe", Summary: "Bethe Hessian spectral clustering, k estimated when not given", Source: "seed 004 §3.2, Alg. 2", Supervision: None, New: func() Method { return BetheHessian{} }},
	}
}
