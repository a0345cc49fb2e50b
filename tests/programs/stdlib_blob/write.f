// write, append and delete update the bytes and the file (§16.3).
text path = 'tmp_blob_write.txt'
blob b = path
log(b.exists())
log(b.write('first'))
log(b.exists())
log(b.toText())
log(b.append(' second'))
log(b.toText())
log(b.length)

// A second load sees what is on disk.
blob again = path
log(again.toText())

log(b.delete())
log(b.exists())
// The bytes stay after delete.
log(b.toText())
log(b.delete())

// Writing through an alias changes the one shared value.
blob alias = b
log(alias.write('via alias'))
log(b.toText())
log(b.delete())

// Writing into a directory that does not exist fails and changes nothing.
blob bad = 'tmp_no_such_dir_xyz/file.txt'
log(bad.write('x'))
log(bad.append('x'))
log(bad.length)
log(bad.exists())
