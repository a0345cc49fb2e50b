// save(), save(path) and saveCopy(path) (§16.6).
blob src = 'fixture.txt'

// saveCopy writes elsewhere and keeps the own path.
log(src.saveCopy('tmp_blob_copy.txt'))
blob copy = 'tmp_blob_copy.txt'
log(copy.toText())

// save(path) adopts the path: later writes go there.
blob b = 'fixture.txt'
log(b.save('tmp_blob_saved.txt'))
log(b.write('changed'))
blob check = 'fixture.txt'
log(check.slice(0, 5))
blob saved = 'tmp_blob_saved.txt'
log(saved.toText())

// A path naming a directory yields false, and a failed save does not
// adopt the path: save() still writes to the old one.
log(b.save('.'))
log(b.saveCopy('.'))
log(b.save('tmp_no_such_dir_xyz/x.txt'))
log(b.append('!'))
log(b.save())
blob saved2 = 'tmp_blob_saved.txt'
log(saved2.toText())

// A blob with no path can be saved under a path, which it adopts.
blob fresh = ''
log(fresh.exists())
log(fresh.save('tmp_blob_fresh.txt'))
log(fresh.exists())
log(fresh.write('now with a path'))
log(fresh.save())

// clean up
log(copy.delete())
log(b.delete())
log(fresh.delete())
