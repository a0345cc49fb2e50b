// A worker pool hashing files in parallel (§20.6): main sends each file
// name to `hashers` (routed to an idle instance), every instance reads
// the file and computes its 64-bit FNV-1a hash, and its reply reports
// progress to main. Results are printed at the end, ordered by the
// names' first letters.
//
//     festina examples/hash_files.f [directory]     (default: examples/sounds)
struct Digest {
    name:text
    size:int
    hash:text
}

thread hashers[3] {
    text func fnv1a(b:blob) {
        int h = -3750763034362895579
        for int i = 0, i < b.length, i++ {
            h = h ^ b.byteAt(i)
            h = h * 1099511628211
        }
        return `${h}`
    }
    on message(sender:thread, path:text) {
        blob b = path
        Digest d = {'name': path, 'size': b.length, 'hash': fnv1a(b)}
        sender.reply(d)
    }
}

text dir = argv.length > 1 ? argv[1] : 'sounds'
arr[text] names = ls(dir)
names.sort(int (a:text, b:text) => a.charCodeAt(0) - b.charCodeAt(0))
map[Digest] done = {}
int count = 0

void func finished(d:Digest) {
    done[d.name] = d
    count = count + 1
    log(`hashed ${count} of ${names.length}`)
    if count == names.length {
        for int i = 0, i < names.length, i++ {
            Digest r = done[`${dir}/${names[i]}`]
            log(`${names[i]}: ${r.size} bytes, fnv1a ${r.hash}`)
        }
    }
}

for int i = 0, i < names.length, i++ {
    hashers.postMessage(`${dir}/${names[i]}`).callback(finished)
}
