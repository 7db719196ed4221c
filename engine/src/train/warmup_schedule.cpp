#include "train/warmup_schedule.h"

#include <algorithm>
#include <cmath>

namespace attnscope {

double warmup_learning_rate(double peak, int warmup, int64_t batch) {
  const double step = static_cast<double>(std::max<int64_t>(1, batch));
  const double w = std::max(1, warmup);
  return peak * std::min(step / w, std::sqrt(w / step));
}

}  // namespace attnscope
