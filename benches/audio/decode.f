// The Festina side of the audio decode benchmark (README.md):
//     FESTINA_AUDIO_TRACE=trace.txt festina decode.f FILE RUNS
// declares `aud clip = FILE` RUNS + 1 times (the first untimed), then
// reads the runtime's audio trace, which times each load from before the
// file is read to the decoded clip, and prints
//     decode_ms <min> <median> frames <n> rate <hz> channels <n>

text path = argv[1]
int runs = argv[2].toInt()
text trace = environment.FESTINA_AUDIO_TRACE
if trace == null || runs == null || runs < 1 {
    fail('usage: FESTINA_AUDIO_TRACE=trace.txt festina decode.f FILE RUNS')
}

for int i = 0, i <= runs, i++ {
    aud clip = path
}

// `decode <format> <µs> frames <n> rate <hz> channels <n>`
blob lines = trace
arr[float] ms = []
text shape = ''
int seen = 0
arr[text] all = lines.toText().split('\n')
for int i = 0, i < all.length, i++ {
    arr[text] w = all[i].split(' ')
    if w.length == 9 && w[0] == 'decode' {
        seen++
        if seen > 1 {
            ms.push(w[2].toInt() / 1000)
        }
        shape = `frames ${w[4]} rate ${w[6]} channels ${w[8]}`
    }
}
if ms.length != runs {
    fail(`expected ${runs + 1} decode lines in ${trace}, found ${seen}`)
}
ms.sort(int (a:float, b:float) => a < b ? -1 : (a > b ? 1 : 0))
int mid = Math.floorDiv(ms.length, 2)
float median = ms.length % 2 == 1 ? ms[mid] : (ms[mid - 1] + ms[mid]) / 2
log(`decode_ms ${ms[0]} ${median} ${shape}`)
