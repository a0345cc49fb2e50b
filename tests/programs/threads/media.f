// Clips and images cross to a thread and back as deep copies (§20.4):
// the worker gets its own decoded clip and its own pixels, and what it
// sends back is whole (the same encoded bytes, the same size).
thread keeper {
    on message(from:thread, clip:aud) {
        from.reply(clip)
    }
}
thread measurer {
    on message(from:thread, pic:img) {
        from.reply(`${pic.width}x${pic.height}`)
    }
}
aud clip = '../audio/short.wav'
img pic = blankImage(4, 3)

void func measure() {
    measurer.postMessage(pic).callback(void (r:text) => log(`image ${r}`))
}

void func check(back:aud) {
    log(`clip saved ${back.saveCopy('clip_copy.tmp')}, plays on ${back.play()}`)
    stopAudioPlayer()
    blob original = '../audio/short.wav'
    blob copy = 'clip_copy.tmp'
    log(`same length ${original.length == copy.length}`)
    log(`deleted ${copy.delete()}`)
    measure()
}

keeper.postMessage(clip).callback(check)
