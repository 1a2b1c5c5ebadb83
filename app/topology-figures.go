package app

// shareFigures are the node figures that are a share of a whole (0 to
// 1), shown as a percentage; the others are counts.
var shareFigures = []string{"hit_ratio", "utilization"}
