# The Debian packages, the Debian way: the programs apart from the models, which are the same on
# every architecture. `./build.sh package` (cpack -G DEB in build/) makes
#   attnscope_<version>_amd64.deb        the programs, the SentencePiece plugin, the desktop entry,
#                                        icons, AppStream data, man pages, completion, the guide;
#                                        it Depends on attnscope-models of the same version;
#   attnscope-models_<version>_all.deb   the shipped models (usr/share/attnscope/models).
# What goes in each are the project's install() rules: a rule that names no COMPONENT installs into
# "attnscope" (the top-level CMakeLists.txt sets that default), the models' rule into "models".
# dist/unix/CMakeLists.txt adds the desktop files and each package's copyright and changelog.
# Included from the top-level CMakeLists.txt, before dist/unix, which reads these names.

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
# One package per install component, each named and described below, the first line of each
# description its synopsis. CPack puts CPACK_PACKAGE_DESCRIPTION_SUMMARY (by default the project's
# DESCRIPTION) before every package's description, but not when it is CPack's own placeholder: so
# the placeholder it is, and the models' package does not get the app's synopsis.
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${CMAKE_PROJECT_NAME} built using CMake")
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_ALL attnscope models)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)  # attnscope_0.10.0_amd64.deb, attnscope-models_0.10.0_all.deb
set(CPACK_DEBIAN_PACKAGE_SOURCE attnscope)  # both made from the one source tree
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
# The models package has no binary, so shlibdeps adds nothing to it.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)

# attnscope: the programs. The models of its own version, exactly: a model file's format and the
# engine that reads it change together.
set(CPACK_DEBIAN_ATTNSCOPE_PACKAGE_NAME attnscope)
set(CPACK_DEBIAN_ATTNSCOPE_PACKAGE_DEPENDS
    "attnscope-models (= ${PROJECT_VERSION}), libopenblas0-openmp | libopenblas0")
# A Wayland session without it runs the app through XWayland (the xcb plugin).
set(CPACK_DEBIAN_ATTNSCOPE_PACKAGE_SUGGESTS qt6-wayland)
set(CPACK_DEBIAN_ATTNSCOPE_DESCRIPTION "explore attention in neural machine translation
A desktop tool for exploring attention in neural machine translation.
Type an English sentence, watch a LibTorch encoder-decoder translate it into
German step by step, see the alignment heatmap grow row by row, compare six
attention score functions on the same sentence, set attention beside gradient
attributions, and measure on a whole test set what attention does.
.
The package holds the app (attnscope), the command-line tool (attnscope-cli:
translate, explain, train, eval, align, export, bench) and the user guide
(Help > User guide); the trained models are in attnscope-models.")

# attnscope-models: the models, architecture-independent (Debian keeps big data out of the
# packages built once per architecture).
set(CPACK_DEBIAN_MODELS_PACKAGE_NAME attnscope-models)
set(CPACK_DEBIAN_MODELS_PACKAGE_ARCHITECTURE all)
set(CPACK_DEBIAN_MODELS_DESCRIPTION "trained translation models for attnscope
The shipped models of attnscope and attnscope-cli: seven English-German
models, one per attention score function and one without attention, and two
English-French ones. They were trained by attnscope's own scripts on Multi30k
(Elliott et al., 2016) and on sentences of the Tatoeba Project (tatoeba.org,
CC BY 2.0 FR) as collected at www.manythings.org/anki.")
include(CPack)
