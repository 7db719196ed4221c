# The Debian package, attnscope_<version>_amd64.deb: `./build.sh package` (cpack -G DEB in build/).
# What goes in it are the project's install() rules; dist/unix/CMakeLists.txt adds the desktop
# files. Included from the top-level CMakeLists.txt, before dist/unix, which reads these names.

# Where the repository is published: AppStream's homepage and its screenshots' addresses point
# into it, and the package's Homepage field. Change it here if the project moves.
set(ATTNSCOPE_REPOSITORY_URL "https://github.com/attnscope/attnscope")
set(ATTNSCOPE_SCREENSHOT_URL
    "https://raw.githubusercontent.com/attnscope/attnscope/main/docs/screenshots")
# AppStream wants a reverse-domain id; this one follows the repository's address.
set(ATTNSCOPE_APPSTREAM_ID "io.github.attnscope.attnscope")

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME attnscope)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT
    "attnscope maintainers <maintainers@users.noreply.a-seed-42cb9f85.example>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "explore attention in neural machine translation")
set(CPACK_PACKAGE_DESCRIPTION
    "A desktop tool for exploring attention in neural machine translation.
Type an English sentence, watch a LibTorch encoder-decoder translate it into
German step by step, see the alignment heatmap grow row by row, compare six
attention score functions on the same sentence, set attention beside gradient
attributions, and measure on a whole test set what attention does.
.
The package holds the app (attnscope), the command-line tool (attnscope-cli:
translate, explain, train, eval, align, export, bench) and seven trained
English-German models.")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)  # attnscope_0.9.0_amd64.deb
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_HOMEPAGE ${ATTNSCOPE_REPOSITORY_URL})
set(CPACK_STRIP_FILES ON)
set(CPACK_INSTALL_DEFAULT_DIRECTORY_PERMISSIONS
    OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
# Depends: dpkg-shlibdeps reads the libraries the binaries link (libtorch, Qt, ICU, ...), plus
# what is only loaded at run time and so invisible to it:
# - OpenBLAS: libtorch depends on "libblas3 | libblas.so.3", and apt would choose the reference
#   BLAS, about 10 times slower for training and decoding;
# - libsentencepiece0 is found from the plugin lib/attnscope/libattnscope_sentencepiece.so, which
#   shlibdeps reads too; Qt's xcb platform plugin is in libqt6gui6, its SVG icon engine in
#   libqt6svg6, both linked, so both come with shlibdeps.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "libopenblas0-openmp | libopenblas0")
# A Wayland session without it runs the app through XWayland (the xcb plugin).
set(CPACK_DEBIAN_PACKAGE_SUGGESTS qt6-wayland)
include(CPack)
