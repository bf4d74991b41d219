package preview

// cubeLevels are the intensities of the 6×6×6 colour cube of xterm (16–231).
var cubeLevels = [6]int{0, 95, 135, 175, 215, 255}

// xterm256 returns the colour of the xterm palette, from the cube (16–231)
// or the grey ramp (232–255), nearest to c.
func xterm256(c rgb) uint8 {
	r, g, b := int(c.r), int(c.g), int(c.b)
	ri, gi, bi := cubeIndex(r), cubeIndex(g), cubeIndex(b)
	cube := 16 + 36*ri + 6*gi + bi
	cr, cg, cb := cubeLevels[ri], cubeLevels[gi], cubeLevels[bi]

	avg := (r + g + b) / 3
	gi2 := 0
	if avg > 238 {
		gi2 = 23
	} else if avg > 8 {
		gi2 = (avg - 3) / 10
	}
	gv := 8 + 10*gi2
	if dist(r, g, b, gv, gv, gv) < dist(r, g, b, cr, cg, cb) {
		return uint8(232 + gi2)
	}
	return uint8(cube)
}

// cubeIndex returns the level of the colour cube nearest to v.
func cubeIndex(v int) int {
	switch {
	case v < 48:
		return 0
	case v < 115:
		return 1
	}
	return (v - 35) / 40
}

// dist is the squared distance between two colours.
func dist(r1, g1, b1, r2, g2, b2 int) int {
	dr, dg, db := r1-r2, g1-g2, b1-b2
	return dr*dr + dg*dg + db*db
}
