/** Shown while the stored auth state is read (spec 000 "Guards") and while remotes load. */
export function LoadingScreen() {
  return (
    <div className="page-message" role="status">
      Loading...
    </div>
  );
}
