// expect: compile error, exit 2: circular import _cycle/a.f -> _cycle/b.f -> _cycle/a.f, reported at the `import a.f` in _cycle/b.f:2:1 (or at this file's import, 3:1)
// §6.2 a circular import is detected and reported
import _cycle/a.f
log('never')
