// Messages are deep copies (§20.4): the receiver's changes never reach
// the sender's value, and the sender's later changes never reach the
// receiver. Replies run on main through the post's callback; state
// persists across messages; worker.main tells main sent it.
struct Job { id: int, tags: arr[text], meta: map[int] }

thread keeper {
    arr[text] seen = []
    int func remember(t: text) {
        seen.push(t)
        return seen.length
    }
    on message(worker: thread, msg: Job) {
        msg.tags.push('changed by the worker')
        msg.meta['worker'] = 1
        int n = remember(`${msg.id}:${msg.tags.length}:${worker.main}`)
        worker.reply(`${n} ${seen[n - 1]}`)
    }
    on exit(code: int) {
        log(`keeper exit ${code}: ${seen}`)
    }
}

Job j = { 'id': 1, 'tags': ['a'], 'meta': { 'x': 1 } }
keeper.postMessage(j).callback(void (r: text) => log(`reply ${r}`))
j.id = 2
j.tags.push('b')
keeper.postMessage(j).callback(void (r: text) => log(`reply ${r}`))
log(`main still has ${j.tags} ${j.meta}`)
