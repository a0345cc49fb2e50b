// mkdir and ls (§16.5): mkdir is true only when it created the directory;
// ls lists entry names (never . or ..) or yields an empty array.
text dir = 'tmp_mkdir_ls_dir'
log(mkdir(dir))
log(mkdir(dir))
log(mkdir('tmp_no_such_parent_xyz/child'))
log(mkdir(''))
log(ls(dir))
log(ls(dir).length)

blob f = `${dir}/a.txt`
log(f.write('hi'))
log(ls(dir))

log(ls('tmp_no_such_dir_xyz'))
log(ls(`${dir}/a.txt`))
log(ls(''))

// clean up
log(f.delete())
log(exec(['rmdir', dir]))
log(ls(dir))
