// save() on a blob with no path is a runtime failure (§14.2, §16.6).
blob b = ''
log('before')
b.save()
log('not reached')
