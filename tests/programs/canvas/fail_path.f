// A path call with no path open is a runtime failure (§17.5).
beginPath()
moveTo(0, 0)
fillPath()
lineTo(1, 1)
