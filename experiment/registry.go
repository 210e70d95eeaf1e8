package experiment

// registry lists every experiment. Add one line per experiment.
func registry() []Experiment {
	return []Experiment{
		Closure(ClosureParams{}),
		Table31(), Table42(),
		ThesisFig32(), ThesisFig33(), ThesisFig46(),
		Seed004Fig61(), Seed004Fig62(),
		Seed004Fig63(), Seed004Labels25(),
		Seed004Fig646(),
		Seed002Rate(),
		Seed001Fig4(),
		fgpwcTable1(),
		Table51(),
		PLMeansLimits(), ZhouSBM(),
		OPPLCOrdered(),
		seed001Fig23(), seed001Tables(),
		NoisyConstraints(),
		GraphSensitivity(),
		RealData(),
		Active(),
		KEstimate(), Regularize(),
		AutoDev(), NoisyDev(), AutoScoreDev(),
		SSCKADev(), AutoFoldsDev(), SSCKARankDev(),
		FGPWCCapDev(), AutoHeldOutDev(), CoClusterDev(),
		HBisectionDev(), FastGE2BHDev(),
	}
}
