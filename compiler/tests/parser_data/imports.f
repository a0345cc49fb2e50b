import ui/graphics.f
import ./utils.f
import ../shared/x.f; log(1)
import lib.f // trailing comment
log(helper())
