# cmake -DRAW=DIR -DOUT=DIR -P gzip_tables.cmake: the play page's copy of one raw table set:
# OUT/manifest.txt and OUT/FILE.gz for each raw table RAW/FILE (gzip, which the browser
# decompresses itself: solver/play/page.cmake).
file(MAKE_DIRECTORY ${OUT})
file(COPY ${RAW}/manifest.txt DESTINATION ${OUT})
file(GLOB tables RELATIVE ${RAW} ${RAW}/*.pdb)
foreach(t IN LISTS tables)
  file(ARCHIVE_CREATE OUTPUT ${OUT}/${t}.gz PATHS ${RAW}/${t} FORMAT raw COMPRESSION GZip COMPRESSION_LEVEL 9)
endforeach()
