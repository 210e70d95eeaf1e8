// Package progress defines how long-running computations in tether report
// progress. The library never prints: it sends Events to a Recorder supplied
// by the caller (Settings.Recorder of cluster and eigen, kmeans.Settings,
// graph.BuildRecorded, powerlaw's Options and Bootstrap,
// experiment.RunOptions); the command-line tool supplies one that writes to
// stderr, a line per stage at most once a second once the stage has run for
// a second. Func adapts a function, and Log keeps the events for
// inspection.
//
// Each stage counts its own unit in Done of Total (Total 0: unknown); a
// stage may start again at 0 (k-means once per clustering, fgpwc once per
// fit), and several stages may report at once from parallel work. The
// stages, what they count and when they send:
//
//	stage               Done of Total; from; when an event is sent
//	graph               rows of the current pass of the neighbour search ("pass p: …");
//	                    graph.BuildRecorded, BuildNeighbors; at most once a percent of a pass
//	eigen               eigenpairs converged of the K − d the solver computes (d deflated
//	                    vectors); eigen's solvers, and every eigensolve of a cluster method;
//	                    each restart (Lanczos, BlockLanczos) or iteration (LOBPCG), once (Dense)
//	kmeans              restarts finished of restarts (Message: its objective, iterations);
//	                    kmeans.Cluster and KernelCluster, and cluster's k-means steps;
//	                    after each restart
//	power               power iterations of the cap (Message: vectors left); the power
//	                    method of cluster's mavro and noa-ssc; every 100 iterations
//	labelprop           CG iterations, Total 0 (Message: classes left), every 50; or sweeps
//	                    of the cap (Message: the change), every 1000; cluster.LabelProp
//	fgpwc               descent steps of MaxIter (Message: F and |grad|²), each step, after
//	                    one event with Total 0 naming the embedding's m; cluster.FGPWC
//	fgpwc-pairs         thousandths (Total 1000) of the passes over the pairs (Message: the
//	                    step); cluster.FGPWC; each thousandth and each step
//	fgpwc-cv            fits finished of those planned; cluster.FGPWC's AutoTune, IterCV and
//	                    automatic Laplacian; after each fit
//	cosc                starts finished of the bisection's starts; cluster.COSC; after each
//	                    start
//	l1csc               steps of Alg. 1 of the cap, for each bisection and start;
//	                    cluster.L1CSC; each step
//	plmeans             sweeps of the cap (Message: k, J, nodes moved); cluster.PLMeans; each
//	                    sweep
//	cscap-prior         thousandths (Total 1000) of the work on the graph alone (Message: the
//	                    step); cluster.CSCAP; each thousandth and each step
//	cscap-propagation   thousandths of the propagation, the cannot-link correction and the
//	                    graph of A; cluster.CSCAP; each thousandth and each step
//	auto                fits of the cross-validation finished of those planned (Message: the
//	                    fit); cluster.Auto; a first at 0, then after each fit
//	powerlaw-xmin       candidate x_min fitted of the batch's candidates; powerlaw.Fit with
//	                    Xmin 0; at most once a thousandth, and the last; one batch for a
//	                    full scan, one per step of the coarse-to-fine search (each from 0)
//	powerlaw-bootstrap  synthetic data sets fitted of Reps; powerlaw.GoodnessOfFit;
//	                    at most once a thousandth, and the last
//	NAME                cells done (cached ones included) of cells (Message: the time left);
//	                    experiment.Run, the stage named for experiment NAME; after each cell
//	reading PATH        MiB read of the file's MiB; the command tether, as it reads the file
//	parsing NAME        thousandths (Total 1000) of the parse of an edge list after its
//	                    lines (Message: the step); dataset.GraphOptions.Recorder; each
//	                    thousandth and each step; or of a feature table's
//	                    (dataset.Options.Recorder), the same way
//	figures             thousandths of metrics.EvaluateContext's work (Message: the step);
//	                    metrics.Options.Recorder; each thousandth and each step
//
// Stages nest: a cluster method reports "eigen" and "kmeans" for the
// steps it runs besides its own stage (fgpwc, cscap-prior, …), and
// cluster.Auto's fits are quiet while "auto" counts them, its winner's
// final fit then reporting as that method does alone.
package progress
