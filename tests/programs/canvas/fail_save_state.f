// saveState() nests at most 64 deep.
for int i = 0, i < 65, i++ {
    saveState()
}
