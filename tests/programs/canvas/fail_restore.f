// restoreState() with nothing saved is a runtime failure (§17.5).
saveState()
restoreState()
restoreState()
