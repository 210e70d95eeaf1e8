// Package catalog loads the benchmark datasets of the project by name, with
// the quirks of each file handled and the preprocessing of the experiments
// applied.
//
// The files live outside the repository, in a datasets folder with one
// subfolder per dataset (DefaultRoot finds it: $TETHER_DATASETS, else
// ../shared/datasets beside the clone; the folder's own MANIFEST.md, where
// present, gives each file's source). Each Entry documents its source
// layout (label first or last, ID columns, missing values, ARFF comments,
// quoted CSV, …) and its preprocessing: by default continuous features are
// min–max scaled to [0,1] and nominal features one-hot encoded, as in the
// FGPWC experiments (seed 003 §5.1). Graph datasets (karate, wiki) come as
// graphs with ground-truth labels; webkb comes as binary word features plus
// its citation graph; classic3 comes as a sparse document–term matrix plus
// a cosine k-NN graph, since its dense 3891×5896 form would take 180 MB.
// LoadContext stops when its context is cancelled, as the readers of
// package dataset do.
package catalog
