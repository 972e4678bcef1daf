/** What the path policy refuses before any I/O. (`DEFAULTS` of `@tackle/tools` repeats them.) */
export const PATH_LIMITS = {
  /**
   * Bytes of one name in a path (UTF-8; UTF-16 units on Windows). ext4, XFS, btrfs, APFS and
   * NTFS all stop at 255, so a longer name cannot exist and is refused before any I/O.
   */
  nameMaxBytes: 255,
  /** Bytes of a whole path as sent (Linux refuses paths of PATH_MAX = 4096 and more). */
  maxBytes: 4096,
} as const;
