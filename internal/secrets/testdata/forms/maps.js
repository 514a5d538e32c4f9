const MAPS_KEY = "AI@@zaWrk9aXGHxNzj7Pz-5oCteERsoD1azDjQEHa";
export default MAPS_KEY;
