// §10.10 throw renders its operand as text (§8.21)
struct Err {
    code:int
    msg:text
}
try { throw 42 } catch (e:text) { log(e); log(e.length) }
try { throw 2.5 } catch (e:text) { log(e) }
try { throw true } catch (e:text) { log(e) }
Err er = {'code': 404, 'msg': 'not found'}
try { throw er } catch (e:text) { log(e) }
arr[int] xs = [1, 2]
try { throw xs } catch (e:text) { log(e) }
