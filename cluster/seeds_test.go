package cluster

import "testing"

// TestStreamIDsDistinct checks the promise of seeds.go: the generator
// streams (streamSrc) are pairwise distinct, and so are the
// derived-settings streams (Settings.derive), so that no two uses of
// randomness share a generator by accident. The families that offset
// their id (streamPower + 0x100·c, streamCOSC + 0x100·h) are checked for
// the first 64 offsets. The one documented exception is streamCVQE =
// streamAutoFolds (see seeds.go).
func TestStreamIDsDistinct(t *testing.T) {
	gen := map[string]stream{
		"streamEigen": streamEigen, "streamKMeans": streamKMeans, "streamLabelProp": streamLabelProp,
		"streamPLMeans": streamPLMeans, "streamCVQE": streamCVQE, "streamLabelSample": streamLabelSample,
		"streamFolds": streamFolds, "streamAutoFolds": streamAutoFolds,
	}
	for c := range stream(64) {
		gen["streamPower+"+string(rune('0'+c%10))+"/"+string(rune('a'+c/10))] = streamPower + 0x100*c
		gen["streamCOSC+"+string(rune('0'+c%10))+"/"+string(rune('a'+c/10))] = streamCOSC + 0x100*c
	}
	seen := map[stream]string{}
	for name, id := range gen {
		if other, ok := seen[id]; ok && !allowedShared(name, other) {
			t.Errorf("generator streams %s and %s share id %d", name, other, id)
		}
		seen[id] = name
	}
	derived := []stream{streamFastGE, streamSSCKA, streamCSCAP, streamCSC, streamPairNcut, streamCSP,
		streamCPCA, streamCLPP, streamL1CSC, streamCoCluster, streamLabelRecover, streamAuto, streamPairReference, streamPairRefine}
	dseen := map[stream]int{}
	for i, id := range derived {
		if j, ok := dseen[id]; ok {
			t.Errorf("derived streams %d and %d share id %d", i, j, id)
		}
		dseen[id] = i
	}
}

// allowedShared reports whether generator streams a and b are the
// documented exception that shares one id.
func allowedShared(a, b string) bool {
	return a == "streamCVQE" && b == "streamAutoFolds" || a == "streamAutoFolds" && b == "streamCVQE"
}
