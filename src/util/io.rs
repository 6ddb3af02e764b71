//! I/O errors as sentences for users.

/// An I/O error as the end of a sentence for a user: what went wrong, without the bare
/// `(os error N)` of `io::Error`'s text.
pub(crate) fn io_reason(e: &std::io::Error) -> String {
    use std::io::ErrorKind::*;
    match e.kind() {
        PermissionDenied => "permission denied (this user may not write or read there)".into(),
        NotFound => "no such file or directory".into(),
        AlreadyExists => "it already exists".into(),
        StorageFull => "the disk is full (no space left on the device)".into(),
        ReadOnlyFilesystem => "the file system is read-only".into(),
        NotADirectory => "a part of the path is a file, not a directory".into(),
        IsADirectory => "it is a directory, not a file".into(),
        FileTooLarge => "the file would pass this process's file size limit (ulimit -f)".into(),
        _ => {
            let text = e.to_string();
            match text.rfind(" (os error ") {
                Some(i) => text[..i].to_string(),
                None => text,
            }
        }
    }
}
