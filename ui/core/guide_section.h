#pragma once
// What a tab offers to the "?" beside the tabs: the section of the user guide about it. The
// window asks the shown tab, never which tab it is, as for File > Export (render/export_target.h).
#include <QString>

namespace attnscope::ui {

class GuideSection {
 public:
  virtual ~GuideSection() = default;
  /// The page of docs/ and the heading about the tab ("app.md#corpus-tab"; core/guide_pages.h).
  virtual QString guideSection() const = 0;
};

}  // namespace attnscope::ui
